/** Immutable values: container specs, run specs, event specs and stats. JSON names are lmctfy's. */
@NullMarked
package org.lmctfy.spec;

import org.jspecify.annotations.NullMarked;
