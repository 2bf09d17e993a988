#!/usr/bin/env python3
"""Turns a jcstress HTML report (results/*.html) into result tables in the style of jcstress's own
samples (BasicJMM_06_Causality): RESULT, SAMPLES, FREQ, EXPECT, DESCRIPTION, summed over the JVM
configurations, plus the samples of each configuration.

  ladder-tables.py RESULTS_DIR > report-tables.md          # markdown for the committed report
  ladder-tables.py RESULTS_DIR --javadoc SRC_DIR REPORT    # also paste each table into the test's Javadoc
"""
import html
import os
import re
import sys


def cells(row, tag):
    return [html.unescape(re.sub(r'<[^>]*>', '', c)).strip()
            for c in re.findall(r'<%s[^>]*>(.*?)</%s>' % (tag, tag), row, re.S)]


def parse(path):
    text = open(path, encoding='utf-8').read()
    table = text[text.find('<h3>Results</h3>'):]
    table = table[:table.find('</table>')]
    rows = re.findall(r'<tr>(.*?)</tr>', table, re.S)
    states = cells(rows[1], 'th')[1:]
    expects = cells(rows[2], 'td')[1:]
    descs = cells(rows[3], 'td')[1:]
    configs = []
    for row in rows[4:]:
        c = cells(row, 'td')
        options = re.sub(r'--enable-native-access=ALL-UNNAMED,? ?', '', c[2]).strip('[], ')
        options = ('C2 + StressLCM/GCM/IGVN/CCP' if 'StressLCM' in options else 'C2' if '-TieredCompilation' in options
                   else 'C1' if 'TieredStopAtLevel=1' in options else 'interpreter' if '-Xint' in options
                   else options or 'default')
        configs.append((options, c[3], [int(x) for x in c[4:4 + len(states)]]))
    return states, expects, descs, configs


def table(name, parsed, indent):
    states, expects, descs, configs = parsed
    totals = [sum(cfg[2][i] for cfg in configs) for i in range(len(states))]
    total = sum(totals) or 1
    width = max(len('RESULT'), max(len(s) for s in states))
    lines = ['%*s  %13s  %7s  %12s  %s' % (width, 'RESULT', 'SAMPLES', 'FREQ', 'EXPECT', 'DESCRIPTION')]
    limit = 120 - len(indent)
    for s, n, e, d in zip(states, totals, expects, descs):
        head = '%*s  %13s  %6.2f%%  %12s  ' % (width, s, '{:,}'.format(n), 100.0 * n / total, e)
        words = d.split()
        line = head
        for w in words:
            if len(line) + len(w) + 1 > limit and line.strip() != head.strip():
                lines.append(line.rstrip())
                line = ' ' * len(head)
            line += w + ' '
        lines.append(line.rstrip())
    lines.append('')
    for options, status, counts in configs:
        lines.append('%s, %s: %s' % (status, options, ', '.join('{:,}'.format(x) for x in counts))[:limit])
    return [indent + l if l else indent.rstrip() for l in lines]


def main():
    results = sys.argv[1]
    tests = sorted(f[:-5] for f in os.listdir(results) if f.startswith('org.') and f.endswith('.html'))
    parsed = {t: parse(os.path.join(results, t + '.html')) for t in tests}
    for t in tests:
        print('### %s\n\n```' % t.replace('org.rma4j.stress.', ''))
        print('\n'.join(table(t, parsed[t], '')))
        print('```\n')
    if len(sys.argv) > 3 and sys.argv[2] == '--javadoc':
        src, report = sys.argv[3], sys.argv[4]
        for t in tests:
            parts = t.split('.')
            container, name = parts[-2], parts[-1]
            path = os.path.join(src, container + '.java')
            code = open(path, encoding='utf-8').read()
            m = re.search(r'\n(    @JCStressTest\n(?:(?!\n    @JCStressTest).)*?class %s\b)' % name, code, re.S)
            if not m:
                print('no test class %s in %s' % (name, path), file=sys.stderr)
                continue
            start = m.start(1)
            previous = code[:start]
            if previous.rstrip().endswith('*/') and 'Measured' in previous[previous.rstrip().rfind('/**'):]:
                start = previous.rstrip().rfind('/**') + 0
                start = previous.rfind('\n', 0, start) + 1
                code = code[:start] + code[m.start(1):]
                m = re.search(r'\n(    @JCStressTest\n(?:(?!\n    @JCStressTest).)*?class %s\b)' % name, code, re.S)
                start = m.start(1)
            doc = ['    /**', '     * Measured (%s, summed over the JVM configurations):' % report, '     *',
                   '     * <pre>{@code']
            doc += table(t, parsed[t], '     *   ')
            doc += ['     * }</pre>', '     */', '']
            code = code[:start] + '\n'.join(doc) + code[start:]
            open(path, 'w', encoding='utf-8').write(code)


if __name__ == '__main__':
    main()
