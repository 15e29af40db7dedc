package io.hops.namenode.web.webhdfs;

import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * What an operation needs: the namenode's client protocol (the same object the RPC server serves,
 * so permissions, safe mode, metrics and retries are shared), its configuration, redirects, and its
 * RPC address (what tokens name).
 */
record WebHdfsContext(
    ClientProtocol cp, Configuration conf, DatanodeRedirect redirect, InetSocketAddress rpc) {}
