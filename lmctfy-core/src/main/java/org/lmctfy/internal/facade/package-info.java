/** Not API: the facade's implementation (ContainerApi, Container). */
package org.lmctfy.internal.facade;
