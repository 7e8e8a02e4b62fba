/** Not API: per-container locks across threads and processes. */
package org.lmctfy.internal.lock;
