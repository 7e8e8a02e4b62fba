/** Not API: the implementation. Changes without notice; not exported by the module. */
package org.lmctfy.internal;
