package io.strata.hadoop.contract.s3;

import io.strata.hadoop.contract.StrataContract;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Hadoop's vectored read contract on strata:// over S3 (S3Proxy), into heap and direct buffers. */
@ParameterizedClass(name = "buffer-{0}")
@MethodSource("params")
class S3ContractVectoredReadTest extends AbstractContractVectoredReadTest {
    S3ContractVectoredReadTest(String bufferType) {
        super(bufferType);
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return StrataContract.s3(conf);
    }
}
