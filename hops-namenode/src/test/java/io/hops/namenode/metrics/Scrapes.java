package io.hops.namenode.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Reads a namenode's {@code /jmx} and {@code /prom} over HTTP, as a monitoring agent does. */
final class Scrapes {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Scrapes() {}

  /** Every {@code Hadoop:service=NameNode} bean of {@code /jmx}, by its {@code name=}. */
  static Map<String, JsonNode> jmx(String httpUri) throws IOException {
    JsonNode root = JSON.readTree(get(httpUri + "/jmx?qry=Hadoop:service=NameNode,name=*"));
    Map<String, JsonNode> beans = new HashMap<>();
    for (JsonNode bean : root.get("beans")) {
      String name = bean.get("name").asText();
      beans.put(name.substring(name.indexOf("name=") + "name=".length()), bean);
    }
    return beans;
  }

  static String get(String uri) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(uri).toURL().openConnection();
    try (InputStream in = c.getInputStream()) {
      if (c.getResponseCode() != 200) {
        throw new IOException(uri + ": HTTP " + c.getResponseCode());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }
}
