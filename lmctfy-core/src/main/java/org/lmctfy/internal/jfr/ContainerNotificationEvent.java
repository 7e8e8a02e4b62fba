package org.lmctfy.internal.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;

/** The fields every notification event has: its container and the registration that saw it. */
abstract class ContainerNotificationEvent extends jdk.jfr.Event {
  @Label("Container")
  @Description("The container's name")
  String container;

  @Label("Registration")
  @Description("The id of the notification registration that saw it")
  long registration;
}
