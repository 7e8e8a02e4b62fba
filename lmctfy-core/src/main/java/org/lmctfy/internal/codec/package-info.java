/**
 * Not API: the spec codec. One {@code ObjectMapper} binds JSON and lmctfy's protobuf text format
 * (parsed here into a Jackson tree) to the records of {@code org.lmctfy.spec}, and turns Jackson's
 * failures into {@code LmctfyException}s with {@code INVALID_ARGUMENT}. Changes without notice; not
 * exported by the module.
 */
package org.lmctfy.internal.codec;
