package io.strata.hadoop.contract.local;

import io.strata.hadoop.contract.StrataContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Append contract on strata:// over a local directory. */
class LocalContractAppendTest extends AbstractContractAppendTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return StrataContract.local(conf);
    }
}
