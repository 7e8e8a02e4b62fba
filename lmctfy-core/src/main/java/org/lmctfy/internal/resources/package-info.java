/**
 * Not API: the resource handlers. Each turns one spec section into interface-file writes, checked
 * against the host before anything is written.
 */
package org.lmctfy.internal.resources;
