package org.lmctfy.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A container_empty notification of the API: the container's last process ended. */
@Name("org.lmctfy.ContainerEmpty")
@Label("Container Empty")
@Category({"lmctfy", "Notifications"})
@Description(
    "The last process of the container (and its subcontainers) ended, as a container_empty"
        + " notification of the API saw it")
@StackTrace(false)
final class ContainerEmptyEvent extends ContainerNotificationEvent {}
