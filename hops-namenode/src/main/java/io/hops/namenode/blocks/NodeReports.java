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

  /** See {@link DatanodeState#gainedReports}. */
  synchronized boolean gainedReports(boolean ownsNow) {
    boolean gained = ownsNow && !ownedReports;
    ownedReports = ownsNow;
    return gained;
  }

  synchronized boolean ownsReports() {
    return ownedReports;
  }

  /** See {@link DatanodeState#leaseGranted}. */
  synchronized void leaseGranted(long lease, Map<Integer, long[]> recorded) {
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
