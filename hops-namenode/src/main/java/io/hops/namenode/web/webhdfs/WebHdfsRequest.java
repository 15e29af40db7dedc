package io.hops.namenode.web.webhdfs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.servlet.http.HttpServletRequest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.hdfs.web.resources.DelegationParam;
import org.apache.hadoop.hdfs.web.resources.DoAsParam;
import org.apache.hadoop.hdfs.web.resources.Param;
import org.apache.hadoop.hdfs.web.resources.UserParam;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;

/**
 * One WebHDFS request: its path (percent-decoded, as JAX-RS hands it to HDFS), its parameters
 * parsed by Hadoop's own {@link Param} classes (names as HDFS 3.5 matches them: exactly, lower
 * case; HDFS's defaults; HDFS's "Invalid value for webhdfs parameter" refusal), and its user.
 */
final class WebHdfsRequest {
  private final HttpServletRequest http;
  private final Configuration conf;
  private final String path;

  WebHdfsRequest(HttpServletRequest http, Configuration conf) {
    this.http = http;
    this.conf = conf;
    this.path = "/" + decode(relativePath(http));
  }

  /** The absolute namespace path: {@code /webhdfs/v1/a/b} is {@code /a/b}. */
  String path() {
    return path;
  }

  HttpServletRequest http() {
    return http;
  }

  Configuration conf() {
    return conf;
  }

  /**
   * A parameter by its name, made by {@code make} from the query's first value, or from {@code
   * defaultValue} when absent, exactly as JAX-RS builds HDFS's resource arguments.
   */
  <P extends Param<?, ?>> P get(String name, String defaultValue, Function<String, P> make) {
    String raw = raw(name);
    return parse(name, raw == null ? defaultValue : raw, make);
  }

  /** Every value of a repeatable parameter ({@code xattr.name}). */
  <P extends Param<?, ?>> List<P> all(String name, Function<String, P> make) {
    List<P> out = new ArrayList<>();
    String[] values = http.getParameterValues(name);
    if (values != null) {
      for (String v : values) {
        out.add(parse(name, v, make));
      }
    }
    return out;
  }

  private String raw(String name) {
    return http.getParameter(name);
  }

  private static <P> P parse(String name, String value, Function<String, P> make) {
    try {
      return make.apply(value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Invalid value for webhdfs parameter \"" + name + "\": " + e, e);
    }
  }

  UserParam user() {
    return get(UserParam.NAME, UserParam.DEFAULT, UserParam::new);
  }

  DelegationParam delegation() {
    return get(DelegationParam.NAME, DelegationParam.DEFAULT, DelegationParam::new);
  }

  DoAsParam doAs() {
    return get(DoAsParam.NAME, DoAsParam.DEFAULT, DoAsParam::new);
  }

  /**
   * The caller as HDFS's namenode sees it ({@code JspHelper.getUGI}). With security off: {@code
   * user.name}, else the static web user ({@code hadoop.http.staticuser.user}). With Kerberos: the
   * owner of a {@code delegation=} token, verified against the database's token store (the web
   * server's {@code name.node} attribute), else the user the authentication filter (SPNEGO) let in.
   * {@code doas} makes it a proxy user, authorized by the {@code hadoop.proxyuser.*} rules.
   */
  UserGroupInformation ugi() {
    user();
    doAs();
    try {
      return JspHelper.getUGI(
          http.getServletContext(), http, conf, AuthenticationMethod.KERBEROS, false);
    } catch (IOException e) {
      throw new SecurityException(SecurityUtil.FAILED_TO_GET_UGI_MSG_HEADER + " " + e, e);
    }
  }

  private static String relativePath(HttpServletRequest http) {
    String uri = http.getRequestURI();
    String prefix = http.getContextPath() + WebHdfsFileSystem.PATH_PREFIX;
    String rest = uri.startsWith(prefix) ? uri.substring(prefix.length()) : "";
    return rest.startsWith("/") ? rest.substring(1) : rest;
  }

  /** Percent-decoding of a URI path (UTF-8; a {@code +} stays a plus). */
  static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    int i = 0;
    while (i < s.length()) {
      int c = s.codePointAt(i);
      if (c == '%') {
        int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
        int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("Malformed percent-encoded octet at index " + i);
        }
        out.write(hi * 16 + lo);
        i += 3;
      } else {
        byte[] b = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        i += Character.charCount(c);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
