/**
 * Not API: the ground floor of the internal packages: the one errno-to-status table, and the
 * launcher's placement failure that the kernel backend throws and the facade reads through it.
 * Every internal package may use it; it uses nothing internal.
 */
package org.lmctfy.internal.errors;
