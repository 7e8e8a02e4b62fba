/** Not API: reading a container's usage from its interface files. */
package org.lmctfy.internal.stats;
