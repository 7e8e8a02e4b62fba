/** Not API: the processes inside containers: killing them, and (later) running and entering. */
package org.lmctfy.internal.process;
