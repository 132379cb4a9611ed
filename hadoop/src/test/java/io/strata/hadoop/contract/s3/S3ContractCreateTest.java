package io.strata.hadoop.contract.s3;

import io.strata.hadoop.contract.StrataContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's Create contract on strata:// over S3 (S3Proxy). */
class S3ContractCreateTest extends AbstractContractCreateTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return StrataContract.s3(conf);
    }
}
