package io.hops.namenode.contract;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hadoop's Rename contract against a hops namenode. */
public class TestHopsContractRename extends AbstractContractRenameTest {
  @BeforeAll
  public static void createCluster() throws IOException {
    HopsContract.createCluster();
  }

  @AfterAll
  public static void teardownCluster() throws IOException {
    HopsContract.destroyCluster();
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HopsContract(conf);
  }

  @Test
  @Override
  public void testRenameNewFileSameDir() throws Throwable {
    HopsContract.assumeDatanodes("the source file is written with a dataset");
    super.testRenameNewFileSameDir();
  }

  @Test
  @Override
  public void testRenameFileOverExistingFile() throws Throwable {
    HopsContract.assumeDatanodes("both files are written with datasets");
    super.testRenameFileOverExistingFile();
  }

  @Test
  @Override
  public void testRenameDirIntoExistingDir() throws Throwable {
    HopsContract.assumeDatanodes("the source directory holds a file with a dataset");
    super.testRenameDirIntoExistingDir();
  }

  @Test
  @Override
  public void testRenameFileNonexistentDir() throws Throwable {
    HopsContract.assumeDatanodes("the source file is written with a dataset");
    super.testRenameFileNonexistentDir();
  }

  @Test
  @Override
  public void testRenameWithNonEmptySubDir() throws Throwable {
    HopsContract.assumeDatanodes("the subdirectories hold files with data");
    super.testRenameWithNonEmptySubDir();
  }

  @Test
  @Override
  public void testRenamePopulatesFileAncestors() throws IOException {
    HopsContract.assumeDatanodes("the source file is written with a dataset");
    super.testRenamePopulatesFileAncestors();
  }

  @Test
  @Override
  public void testRenameFileUnderFile() throws Exception {
    HopsContract.assumeDatanodes("the parent file is written with a dataset");
    super.testRenameFileUnderFile();
  }

  @Test
  @Override
  public void testRenameFileUnderFileSubdir() throws Exception {
    HopsContract.assumeDatanodes("the parent file is written with a dataset");
    super.testRenameFileUnderFileSubdir();
  }
}
