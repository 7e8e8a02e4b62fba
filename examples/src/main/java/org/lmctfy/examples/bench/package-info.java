/** Benchmarks: the library next to the raw kernel floor, and how cost grows with containers. */
package org.lmctfy.examples.bench;
