package io.hops.namenode.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder between a namenode and its database that a test can cut and restore, or freeze
 * and thaw: the faults the real database cannot produce on demand for one namenode only. Cutting
 * closes the listening socket and every forwarded connection; restoring listens on the same port
 * again. Freezing is a database process stopped by SIGSTOP: connections are still accepted (the
 * kernel's backlog does that for a stopped server) but no byte goes either way until the thaw, when
 * what was held is delivered. Freezing the replies only is a one-way partition: the namenode's
 * statements reach the database and run (and commit), but it hears nothing back until the thaw.
 */
public final class TcpCut implements AutoCloseable {
  private final InetSocketAddress target;
  private final int port;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile ServerSocket listener;
  private final Object thawed = new Object();
  private volatile boolean requestsFrozen;
  private volatile boolean repliesFrozen;

  public TcpCut(InetSocketAddress target) throws IOException {
    this.target = target;
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress("127.0.0.1", 0));
    this.port = s.getLocalPort();
    accept(s);
  }

  public int port() {
    return port;
  }

  public synchronized void cut() throws IOException {
    listener.close();
    for (Socket s : open) {
      s.close();
    }
    open.clear();
  }

  public synchronized void restore() throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress("127.0.0.1", port));
    accept(s);
  }

  public void freeze() {
    requestsFrozen = true;
    repliesFrozen = true;
  }

  /** Holds what the database sends back; what the namenode sends still goes through. */
  public void freezeReplies() {
    repliesFrozen = true;
  }

  public void thaw() {
    synchronized (thawed) {
      requestsFrozen = false;
      repliesFrozen = false;
      thawed.notifyAll();
    }
  }

  private void awaitThaw(boolean request) throws IOException {
    synchronized (thawed) {
      while (request ? requestsFrozen : repliesFrozen) {
        try {
          thawed.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while frozen", e);
        }
      }
    }
  }

  private void accept(ServerSocket s) {
    listener = s;
    Thread t =
        new Thread(
            () -> {
              while (!s.isClosed()) {
                try {
                  Socket client = s.accept();
                  Socket server = new Socket(target.getHostString(), target.getPort());
                  open.add(client);
                  open.add(server);
                  pump(client, server, true);
                  pump(server, client, false);
                } catch (IOException e) {
                  // closed by cut()
                }
              }
            },
            "tcp-cut-accept");
    t.setDaemon(true);
    t.start();
  }

  private void pump(Socket from, Socket to, boolean request) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[16384];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                  awaitThaw(request);
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side closed
              } finally {
                try {
                  from.close();
                  to.close();
                } catch (IOException e) {
                  // already closed
                }
              }
            },
            "tcp-cut-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    thaw();
    cut();
  }
}
