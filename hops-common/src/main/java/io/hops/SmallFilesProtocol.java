package io.hops;

/**
 * The class Hadoop's RPC server finds under the small-files protocol's wire name ({@code
 * io.hops.SmallFilesProtocol}, {@link io.hops.common.smallfiles.SmallFilesProtocolPB#NAME}): with
 * {@code hadoop.security.authorization=true} the server authorizes a connection by loading the
 * class its protocol names, and the namenode's policy gives this one the client protocol's ACL. The
 * protocol itself is {@link io.hops.common.smallfiles.SmallFilesProtocol}.
 */
public interface SmallFilesProtocol {}
