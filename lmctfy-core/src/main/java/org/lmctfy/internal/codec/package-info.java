/**
 * Not API: the spec codec. JSON (read by Jackson into a tree) and lmctfy's protobuf text format
 * (parsed here into the same kind of tree) bind to the records of {@code org.lmctfy.spec} through a
 * small reflective binder over the records' Jackson annotations, and records are written back
 * through the same kind of tree; only reading JSON builds Jackson's {@code ObjectMapper}. Failures
 * are {@code LmctfyException}s with {@code INVALID_ARGUMENT}. Changes without notice; not exported
 * by the module.
 */
package org.lmctfy.internal.codec;
