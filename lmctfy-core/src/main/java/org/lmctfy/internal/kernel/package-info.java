/**
 * Not API: the kernel backend of the SPI, {@code KernelCgroupFs} (discovery, real I/O through libc,
 * device filters, watches), with its launcher ({@code launch}) and its virtual hosts ({@code
 * vhost}). It is reached only through the SPI: nothing of the library above it names its classes
 * but {@code ContainerApi.hostCgroupFs()}, which opens it; it uses the SPI, libc, the errno table
 * and the codec, nothing above them (ImportGraphTest).
 */
package org.lmctfy.internal.kernel;
