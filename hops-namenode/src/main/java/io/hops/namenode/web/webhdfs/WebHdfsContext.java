package io.hops.namenode.web.webhdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * What an operation needs: the namenode's client protocol (the same object the RPC server serves,
 * so permissions, safe mode, metrics and retries are shared), its configuration and redirects.
 */
record WebHdfsContext(ClientProtocol cp, Configuration conf, DatanodeRedirect redirect) {}
