package io.hops.namenode.blocks;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What this namenode noted of one datanode's full block reports: whether it owns them now, the
 * report lease it granted and the replicas each storage had recorded then, the full report request
 * it last asked for, and how many reports it applied.
 */
final class NodeReports {
  private boolean ownedReports;
  private long reportLease;

  /** The full report request ({@link FullReportRequests}) last asked for here, and when. */
  private long askedRequest;

  private long askedAt;

  /** The request {@link #reportLease} was granted after asking for (0: none). */
  private long requestAtLease;

  /** By storage id, the sorted ids of the replicas recorded as {@link #reportLease} was granted. */
  private final Map<Integer, long[]> recordedAtLease = new HashMap<>();

  private final AtomicInteger fullReports = new AtomicInteger();

  /** Where the full report this namenode last asked for with a registration command stands. */
  private CatchUp catchUp = CatchUp.NONE;

  /** When {@link #catchUp} became {@link CatchUp#ASKED} (monotonic ms). */
  private long askedToRegisterAt;

  /** Heartbeats in a row, since the datanode registered again, that asked for no report lease. */
  private int heartbeatsWithoutLeaseRequest;

  /** The lease granted for the report asked for, once the datanode registered again. */
  private long catchUpLease;

  private enum CatchUp {
    NONE,
    /** A registration command was sent; the datanode has not registered again yet. */
    ASKED,
    /** The datanode registered again; no lease granted since. */
    REGISTERED,
    /** A lease was granted after the registration; its report is not applied yet. */
    LEASED
  }

  /** See {@link DatanodeState#gainedReports}. */
  synchronized boolean gainedReports(boolean ownsNow) {
    boolean gained = ownsNow && !ownedReports;
    ownedReports = ownsNow;
    if (!ownsNow) {
      catchUp = CatchUp.NONE; // the owner by this namenode's view catches up, or this one again
    }
    return gained;
  }

  /** See {@link DatanodeState#askedToRegister}. */
  synchronized void askedToRegister(long now) {
    catchUp = CatchUp.ASKED;
    askedToRegisterAt = now;
  }

  /** See {@link DatanodeState#registered}. */
  synchronized void registered() {
    if (catchUp == CatchUp.ASKED) {
      catchUp = CatchUp.REGISTERED;
      heartbeatsWithoutLeaseRequest = 0;
    }
  }

  /** See {@link DatanodeState#catchUpAtHeartbeat}. */
  synchronized DatanodeState.CatchUpStep catchUpAtHeartbeat(
      boolean leaseRequested, long now, long reaskMillis) {
    switch (catchUp) {
      case ASKED:
        return now - askedToRegisterAt >= reaskMillis
            ? DatanodeState.CatchUpStep.ASK_AGAIN
            : DatanodeState.CatchUpStep.NO_LEASE;
      case REGISTERED:
        if (leaseRequested) {
          return DatanodeState.CatchUpStep.AS_USUAL;
        }
        // The first heartbeat after the registration may have been made before it; a second one
        // without a request means the datanode has no report due: its command thread's
        // registration scheduled one, and a report it was making meanwhile put it off again.
        return ++heartbeatsWithoutLeaseRequest >= 2
            ? DatanodeState.CatchUpStep.ASK_AGAIN
            : DatanodeState.CatchUpStep.NO_LEASE;
      default:
        return DatanodeState.CatchUpStep.AS_USUAL;
    }
  }

  synchronized boolean ownsReports() {
    return ownedReports;
  }

  /** See {@link DatanodeState#leaseGranted}. */
  synchronized void leaseGranted(long lease, Map<Integer, long[]> recorded) {
    if (catchUp == CatchUp.REGISTERED || catchUp == CatchUp.LEASED) {
      catchUp = CatchUp.LEASED;
      catchUpLease = lease;
    }
    reportLease = lease;
    requestAtLease = askedRequest;
    recordedAtLease.clear();
    recordedAtLease.putAll(recorded);
  }

  /** See {@link DatanodeState#recordedAtLease}. */
  synchronized long[] recordedAtLease(long lease, int storageId) {
    return lease != 0 && lease == reportLease ? recordedAtLease.remove(storageId) : null;
  }

  /** See {@link DatanodeState#askForReport}. */
  synchronized boolean askForReport(long id, long now, long reaskMillis) {
    if (id == 0 || (id == askedRequest && now - askedAt < reaskMillis)) {
      return false;
    }
    askedRequest = id;
    askedAt = now;
    return true;
  }

  /** See {@link DatanodeState#requestAnsweredBy}. */
  synchronized long requestAnsweredBy(long lease) {
    if (catchUp == CatchUp.LEASED && lease != 0 && lease == catchUpLease) {
      catchUp = CatchUp.NONE;
    }
    return lease != 0 && lease == reportLease ? requestAtLease : 0;
  }

  /** See {@link DatanodeState#forgetLease}. */
  synchronized void forgetLease() {
    reportLease = 0;
    requestAtLease = 0;
    recordedAtLease.clear();
  }

  int fullReportsApplied() {
    return fullReports.get();
  }

  void countFullReport() {
    fullReports.incrementAndGet();
  }
}
