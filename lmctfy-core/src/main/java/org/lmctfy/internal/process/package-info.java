/**
 * Not API: the processes inside containers, above the SPI: the command a run starts (from its argv
 * and run spec), entering, listing, killing, freezing and thawing.
 */
package org.lmctfy.internal.process;
