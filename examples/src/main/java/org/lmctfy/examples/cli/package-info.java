/**
 * The {@code lmctfy} command-line tool ({@link org.lmctfy.examples.cli.Lmctfy}): lmctfy's commands
 * over the public API, read against a {@link org.lmctfy.examples.cli.Command} tree. Run it as
 * {@code java -jar examples/target/lmctfy.jar} or with the {@code examples/lmctfy} script.
 */
package org.lmctfy.examples.cli;
