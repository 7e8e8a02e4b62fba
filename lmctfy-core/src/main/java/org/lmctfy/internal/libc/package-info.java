/**
 * Not API: the ground floor's one binding of libc (JNA), with its constants. Every internal package
 * may use it; it uses nothing internal.
 */
package org.lmctfy.internal.libc;
