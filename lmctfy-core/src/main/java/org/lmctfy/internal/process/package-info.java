/**
 * Not API: the processes inside containers: starting them inside (the launcher), entering, listing,
 * killing, freezing and thawing.
 */
package org.lmctfy.internal.process;
