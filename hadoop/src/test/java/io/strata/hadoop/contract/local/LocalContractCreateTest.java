package io.strata.hadoop.contract.local;

import io.strata.hadoop.contract.StrataContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Create contract on strata:// over a local directory. */
class LocalContractCreateTest extends AbstractContractCreateTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return StrataContract.local(conf);
    }
}
