package io.strata.hadoop.contract.local;

import io.strata.hadoop.contract.StrataContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's ContentSummary contract on strata:// over a local directory. */
class LocalContractContentSummaryTest extends AbstractContractContentSummaryTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return StrataContract.local(conf);
    }
}
