/** Small programs that use lmctfy. */
package org.lmctfy.examples;
