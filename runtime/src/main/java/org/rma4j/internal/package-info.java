/**
 * Implementation details of the runtime: layouts of the window file and the protocols on its
 * words. Not public API; may change between versions.
 */
package org.rma4j.internal;
