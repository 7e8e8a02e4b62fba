/**
 * What the library tells JDK Flight Recorder: the events of {@code org.lmctfy.*} (a notification a
 * registration found, a destroy, the periodic statistics of the containers an API handles) and the
 * one place that names {@code jdk.jfr}. Not API.
 */
package org.lmctfy.internal.jfr;
