package io.hops.namenode.web.webhdfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.web.JsonUtil;
import org.apache.hadoop.hdfs.web.resources.BufferSizeParam;
import org.apache.hadoop.hdfs.web.resources.DelegationParam;
import org.apache.hadoop.hdfs.web.resources.ExcludeDatanodesParam;
import org.apache.hadoop.hdfs.web.resources.FsActionParam;
import org.apache.hadoop.hdfs.web.resources.GetOpParam;
import org.apache.hadoop.hdfs.web.resources.LengthParam;
import org.apache.hadoop.hdfs.web.resources.NoRedirectParam;
import org.apache.hadoop.hdfs.web.resources.OffsetParam;
import org.apache.hadoop.hdfs.web.resources.OldSnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.RenewerParam;
import org.apache.hadoop.hdfs.web.resources.SnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.StartAfterParam;
import org.apache.hadoop.hdfs.web.resources.TokenKindParam;
import org.apache.hadoop.hdfs.web.resources.TokenServiceParam;
import org.apache.hadoop.hdfs.web.resources.XAttrEncodingParam;
import org.apache.hadoop.hdfs.web.resources.XAttrNameParam;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/** WebHDFS's GET operations: reads of the namespace, and OPEN / GETFILECHECKSUM by redirect. */
final class GetOps {
  private GetOps() {}

  static Reply handle(WebHdfsContext c, WebHdfsRequest r) throws IOException {
    GetOpParam op = r.get(GetOpParam.NAME, GetOpParam.DEFAULT, GetOpParam::new);
    ClientProtocol cp = c.cp();
    String path = r.path();
    switch (op.getValue()) {
      case OPEN -> {
        OffsetParam offset = r.get(OffsetParam.NAME, OffsetParam.DEFAULT, OffsetParam::new);
        LengthParam length = r.get(LengthParam.NAME, LengthParam.DEFAULT, LengthParam::new);
        BufferSizeParam bufferSize =
            r.get(BufferSizeParam.NAME, BufferSizeParam.DEFAULT, BufferSizeParam::new);
        return Reply.redirect(
            c.redirect()
                .uri(r, op.getValue(), offset.getValue(), excluded(r), offset, length, bufferSize),
            noRedirect(r));
      }
      case GETFILECHECKSUM -> {
        return Reply.redirect(c.redirect().uri(r, op.getValue(), -1L, null), noRedirect(r));
      }
      case GETFILESTATUS -> {
        HdfsFileStatus status = cp.getFileInfo(path);
        if (status == null) {
          throw new FileNotFoundException("File does not exist: " + path);
        }
        return Reply.json(JsonUtil.toJsonString(status, true));
      }
      case LISTSTATUS -> {
        return listing(cp, path);
      }
      case LISTSTATUS_BATCH -> {
        StartAfterParam startAfter =
            r.get(StartAfterParam.NAME, StartAfterParam.DEFAULT, StartAfterParam::new);
        byte[] start =
            startAfter.getValue() == null
                ? HdfsFileStatus.EMPTY_NAME
                : startAfter.getValue().getBytes(StandardCharsets.UTF_8);
        return Reply.json(JsonUtil.toJsonString(directory(cp, path, start)));
      }
      case GETCONTENTSUMMARY -> {
        return Reply.json(JsonUtil.toJsonString(cp.getContentSummary(path)));
      }
      case GETQUOTAUSAGE -> {
        return Reply.json(JsonUtil.toJsonString(cp.getQuotaUsage(path)));
      }
      case GETHOMEDIRECTORY -> {
        return Reply.json(
            "Path",
            DFSUtilClient.getHomeDirectory(c.conf(), UserGroupInformation.getCurrentUser()));
      }
      case GETACLSTATUS -> {
        AclStatus status = cp.getAclStatus(path);
        if (status == null) {
          throw new FileNotFoundException("File does not exist: " + path);
        }
        return Reply.json(JsonUtil.toJsonString(status));
      }
      case GETXATTRS -> {
        XAttrEncodingParam encoding =
            r.get(XAttrEncodingParam.NAME, XAttrEncodingParam.DEFAULT, XAttrEncodingParam::new);
        WebHdfsOp.require(op, encoding);
        List<String> names = new ArrayList<>();
        for (XAttrNameParam n : r.all(XAttrNameParam.NAME, XAttrNameParam::new)) {
          if (n.getXAttrName() != null) {
            names.add(n.getXAttrName());
          }
        }
        List<XAttr> xattrs =
            cp.getXAttrs(path, names.isEmpty() ? null : XAttrHelper.buildXAttrs(names));
        return Reply.json(JsonUtil.toJsonString(xattrs, encoding.getEncoding()));
      }
      case LISTXATTRS -> {
        return Reply.json(JsonUtil.toJsonString(cp.listXAttrs(path)));
      }
      case CHECKACCESS -> {
        FsActionParam action = r.get(FsActionParam.NAME, FsActionParam.DEFAULT, FsActionParam::new);
        WebHdfsOp.require(op, action);
        cp.checkAccess(path, FsAction.getFsAction(action.getValue()));
        return Reply.okUntyped();
      }
      case GETALLSTORAGEPOLICY -> {
        return Reply.json(JsonUtil.toJsonString(cp.getStoragePolicies()));
      }
      case GETSTORAGEPOLICY -> {
        return Reply.json(JsonUtil.toJsonString(cp.getStoragePolicy(path)));
      }
      case GETSERVERDEFAULTS -> {
        return Reply.json(JsonUtil.toJsonString(cp.getServerDefaults()));
      }
      case GET_BLOCK_LOCATIONS, GETFILEBLOCKLOCATIONS -> {
        long offset = r.get(OffsetParam.NAME, OffsetParam.DEFAULT, OffsetParam::new).getValue();
        Long length = r.get(LengthParam.NAME, LengthParam.DEFAULT, LengthParam::new).getValue();
        LocatedBlocks blocks =
            cp.getBlockLocations(path, offset, length != null ? length : Long.MAX_VALUE);
        return Reply.json(
            op.getValue() == GetOpParam.Op.GET_BLOCK_LOCATIONS
                ? JsonUtil.toJsonString(blocks)
                : JsonUtil.toJsonString(DFSUtilClient.locatedBlocks2Locations(blocks)));
      }
      case GETDELEGATIONTOKEN -> {
        DelegationParam delegation =
            r.get(DelegationParam.NAME, DelegationParam.DEFAULT, DelegationParam::new);
        if (delegation.getValue() != null) {
          throw new IllegalArgumentException(delegation.getName() + " parameter is not null.");
        }
        // With simple authentication the namenode issues no token: HDFS answers {"Token":null}.
        String renewer =
            r.get(RenewerParam.NAME, RenewerParam.DEFAULT, RenewerParam::new).getValue();
        Token<DelegationTokenIdentifier> token =
            WebHdfsTokens.issue(cp, c.rpc(), renewer, r.http().getScheme());
        String service =
            r.get(TokenServiceParam.NAME, TokenServiceParam.DEFAULT, TokenServiceParam::new)
                .getValue();
        String kind =
            r.get(TokenKindParam.NAME, TokenKindParam.DEFAULT, TokenKindParam::new).getValue();
        if (token != null && service != null) {
          token.setService(new Text(service));
        }
        if (token != null && kind != null) {
          token.setKind(new Text(kind));
        }
        return Reply.json(JsonUtil.toJsonString(token));
      }
      case GETTRASHROOT -> {
        // hops has neither encryption zones nor snapshots: the trash root is the user's own.
        return Reply.json(
            "Path", DFSUtilClient.getTrashRoot(c.conf(), UserGroupInformation.getCurrentUser()));
      }
      case GETSNAPSHOTDIFF -> {
        return Reply.json(
            JsonUtil.toJsonString(
                cp.getSnapshotDiffReport(
                    path,
                    r.get(
                            OldSnapshotNameParam.NAME,
                            OldSnapshotNameParam.DEFAULT,
                            OldSnapshotNameParam::new)
                        .getValue(),
                    r.get(SnapshotNameParam.NAME, SnapshotNameParam.DEFAULT, SnapshotNameParam::new)
                        .getValue())));
      }
      case GETSNAPSHOTTABLEDIRECTORYLIST -> {
        return Reply.json(JsonUtil.toJsonString(cp.getSnapshottableDirListing()));
      }
      case GETSNAPSHOTLIST -> {
        return Reply.json(JsonUtil.toJsonString(cp.getSnapshotListing(path)));
      }
      case GETLINKTARGET -> {
        return Reply.json("Path", cp.getLinkTarget(path));
      }
      case GETFILELINKSTATUS -> {
        HdfsFileStatus status = cp.getFileLinkInfo(path);
        if (status == null) {
          throw new FileNotFoundException("File does not exist: " + path);
        }
        return Reply.json(JsonUtil.toJsonString(status, true));
      }
      case GETSTATUS -> {
        long[] stats = cp.getStats();
        return Reply.json(
            JsonUtil.toJsonString(new FsStatus(stat(stats, 0), stat(stats, 1), stat(stats, 2))));
      }
      case GETECPOLICY -> {
        return Reply.json(JsonUtil.toJsonString(cp.getErasureCodingPolicy(path)));
      }
      case GETECPOLICIES -> {
        return Reply.json(JsonUtil.toJsonString(cp.getErasureCodingPolicies()));
      }
      case GETECCODECS -> {
        return Reply.json("ErasureCodingCodecs", cp.getErasureCodingCodecs());
      }
      default -> throw WebHdfsOp.unsupported(op);
    }
  }

  private static long stat(long[] stats, int i) {
    return stats.length > i ? stats[i] : -1L;
  }

  static String excluded(WebHdfsRequest r) {
    return r.get(
            ExcludeDatanodesParam.NAME, ExcludeDatanodesParam.DEFAULT, ExcludeDatanodesParam::new)
        .getValue();
  }

  static boolean noRedirect(WebHdfsRequest r) {
    return r.get(NoRedirectParam.NAME, NoRedirectParam.DEFAULT, NoRedirectParam::new).getValue();
  }

  private static DirectoryListing directory(ClientProtocol cp, String path, byte[] startAfter)
      throws IOException {
    DirectoryListing listing = cp.getListing(path, startAfter, false);
    if (listing == null) {
      throw new FileNotFoundException("File " + path + " does not exist.");
    }
    return listing;
  }

  /**
   * LISTSTATUS in HDFS's streamed layout: the first page is read before the 200 is sent (so a
   * missing or forbidden directory is an error status), the rest while writing, as the caller.
   */
  private static Reply listing(ClientProtocol cp, String path) throws IOException {
    DirectoryListing first = directory(cp, path, HdfsFileStatus.EMPTY_NAME);
    return new Reply(
        200,
        Reply.JSON,
        null,
        stream -> {
          PrintWriter out = new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8));
          out.println("{\"FileStatuses\":{\"FileStatus\":[");
          long n = 0;
          for (DirectoryListing page = first; ; page = directory(cp, path, page.getLastName())) {
            for (HdfsFileStatus s : page.getPartialListing()) {
              if (n++ > 0) {
                out.println(',');
              }
              out.print(JsonUtil.toJsonString(s, false));
            }
            if (!page.hasMore()) {
              break;
            }
          }
          out.println();
          out.println("]}}");
          out.flush();
        });
  }
}
