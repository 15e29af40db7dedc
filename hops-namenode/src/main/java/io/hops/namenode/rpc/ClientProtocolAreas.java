package io.hops.namenode.rpc;

/**
 * The protocol areas {@link ClientRpc} hands the {@code ClientProtocol} calls to, each built by the
 * namenode's wiring with the collaborators it uses.
 */
public record ClientProtocolAreas(
    ClientNamespaceReads namespaceReads,
    ClientNamespaceWrites namespaceWrites,
    ClientFileReads fileReads,
    ClientFileWrites fileWrites,
    ClientPipeline pipeline,
    ClientLeases leases,
    ClientXAttrsAndAcls xattrsAndAcls,
    ClientSnapshots snapshots,
    ClientAdmin admin,
    ClientFileReports fileReports,
    ClientDelegationTokens delegationTokens) {}
