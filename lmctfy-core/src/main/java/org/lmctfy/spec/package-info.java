/** Immutable values: container specs, run specs, event specs and stats. JSON names are lmctfy's. */
package org.lmctfy.spec;
