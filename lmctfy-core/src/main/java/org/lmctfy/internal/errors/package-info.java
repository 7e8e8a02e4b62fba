/**
 * Not API: the ground floor of the internal packages, the one errno-to-status table. Every internal
 * package may use it; it uses nothing internal.
 */
package org.lmctfy.internal.errors;
