package io.strata.hadoop.contract.local;

import io.strata.hadoop.contract.StrataContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractConcatTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Concat contract on strata:// over a local directory. */
class LocalContractConcatTest extends AbstractContractConcatTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return StrataContract.local(conf);
    }
}
