/*
 * A minimal hsdis (the HotSpot disassembler plug-in) on capstone, for JMH's -prof perfasm and
 * -XX:+PrintAssembly on x86-64. HotSpot calls decode_instructions_virtual for each code blob; this prints one
 * instruction per line and reports each instruction's bounds, which is what perfasm needs to attribute samples.
 *
 * Build (Debian: apt-get install libcapstone-dev):
 *   gcc -shared -fPIC -O2 -o hsdis-amd64.so hsdis.c -lcapstone
 * Use: LD_LIBRARY_PATH=<its directory> java ... -jar bench/target/rma4j-benchmarks.jar ... -prof perfasm
 */
#include <stdint.h>
#include <stdio.h>
#include <capstone/capstone.h>
typedef void* (*ev_t)(void*, const char*, void*);
typedef int (*pr_t)(void*, const char*, ...);
static void* null_ev(void* s, const char* e, void* a) { return NULL; }
void* decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char* buffer, uintptr_t length,
    ev_t ev, void* evs, pr_t pr, void* prs, const char* options, int newline) {
  csh h;
  if (ev == NULL) ev = null_ev;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) return NULL;
  cs_option(h, CS_OPT_SKIPDATA, CS_OPT_ON);
  cs_insn* insn;
  size_t n = cs_disasm(h, buffer, length, (uintptr_t)buffer, 0, &insn);
  for (size_t j = 0; j < n; j++) {
    ev(evs, "insn", (void*)insn[j].address);
    pr(prs, "%s\t\t%s", insn[j].mnemonic, insn[j].op_str);
    ev(evs, "/insn", (void*)(insn[j].address + insn[j].size));
    if (newline) pr(prs, "\n");
  }
  if (n) cs_free(insn, n);
  cs_close(&h);
  return NULL;
}
