/**
 * The {@link org.lmctfy.cgroupfs.CgroupFs} contract suite: the same cases run on the fake and on
 * the kernel ({@link org.lmctfy.testing.contract.ContractBackend}); a new backend must pass them.
 */
package org.lmctfy.testing.contract;
