/** Not API: container names, their rules and their cgroup paths. */
package org.lmctfy.internal.naming;
