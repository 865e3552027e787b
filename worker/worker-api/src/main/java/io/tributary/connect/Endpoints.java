package io.tributary.connect;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts and ports a server's connectors may connect to (Kafka's {@code bootstrapServers}): a
 * comma-separated allow-list of {@code host:ports} entries.
 *
 * <ul>
 *   <li>host: {@code loopback} (localhost, 127.0.0.0/8, ::1), {@code *} (any host), a name
 *       ({@code kafka.internal}), a name suffix ({@code *.kafka.internal}), an IP address, or a CIDR
 *       block ({@code 10.0.0.0/8}, {@code [fd00::]/8});
 *   <li>ports: {@code *}, one port, or a range {@code 9092-9094}.
 * </ul>
 *
 * Names are matched as written, never resolved: an IP or CIDR entry matches only a host written
 * as an IP address (or {@code localhost} for loopback), so a name cannot smuggle an address in
 * through DNS, and odd numeric forms ({@code 127.1}, {@code 2130706433}) are names that only
 * {@code *} matches. Ports the server itself listens on are refused on loopback whatever the list
 * says ({@link #exceptLoopbackPorts}).
 */
public final class Endpoints {
  /** The embedded default: loopback hosts on unprivileged ports. */
  public static final String LOOPBACK_DEFAULT = "loopback:1024-65535";
  private static final Pattern ENTRY = Pattern.compile("^(\\[[^\\]]+\\](?:/\\d+)?|[^:\\s]+):(\\*|\\d{1,5}(?:-\\d{1,5})?)$");
  private static final Pattern IPV4 = Pattern.compile("^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})$");
  private static final Endpoints ANY = new Endpoints(List.of(new Entry("*", null, 0, 0, 65535)), Set.of(), "*:*");

  private record Entry(String host, byte[] network, int prefix, int fromPort, int toPort) {}

  private final List<Entry> entries;
  private final Set<Integer> ownPorts;
  private final String text;

  private Endpoints(List<Entry> entries, Set<Integer> ownPorts, String text) {
    this.entries = entries;
    this.ownPorts = ownPorts;
    this.text = text;
  }

  /** Every host and port. */
  public static Endpoints any() {
    return ANY;
  }

  /**
   * The allow-list written as {@code text} ({@code none} or empty: nothing allowed).
   *
   * @throws IllegalArgumentException naming the entry that is not of the form above
   */
  public static Endpoints parse(String text) {
    List<Entry> entries = new ArrayList<>();
    String trimmed = text == null ? "" : text.trim();
    if (!trimmed.isEmpty() && !trimmed.equalsIgnoreCase("none")) {
      for (String raw : trimmed.split(",")) {
        entries.add(entry(raw.trim()));
      }
    }
    return new Endpoints(List.copyOf(entries), Set.of(), trimmed.isEmpty() ? "none" : trimmed);
  }

  /**
   * This list, refusing {@code ports} on loopback hosts (the server's own listeners). The set is
   * read at each check, so a server may add the port it was given once it listens.
   */
  public Endpoints exceptLoopbackPorts(Set<Integer> ports) {
    return new Endpoints(entries, ports, text);
  }

  /** The loopback ports refused whatever the list says ({@link #exceptLoopbackPorts}), as of now. */
  public Set<Integer> refusedLoopbackPorts() {
    return Set.copyOf(ownPorts);
  }

  /** As it was written. */
  @Override
  public String toString() {
    return text;
  }

  /** Every endpoint of a comma-separated {@code host:port} list that is refused, with why; empty if all are allowed. */
  public List<String> refusals(String hostPorts) {
    List<String> out = new ArrayList<>();
    if (hostPorts == null || hostPorts.isBlank()) {
      return out;
    }
    for (String one : hostPorts.split(",")) {
      refusal(one.trim()).ifPresent(out::add);
    }
    return out;
  }

  /**
   * Throws if any endpoint of {@code hostPorts} is refused.
   *
   * @throws AccessRefusedException naming {@code what} and the endpoint
   */
  public void check(String what, String hostPorts) {
    List<String> refused = refusals(hostPorts);
    if (!refused.isEmpty()) {
      throw new AccessRefusedException(what + ": " + String.join("; ", refused));
    }
  }

  /** Why {@code hostPort} is refused, or empty if it is allowed. */
  public Optional<String> refusal(String hostPort) {
    String host;
    int port;
    try {
      int colon = hostPort.lastIndexOf(':');
      if (colon <= 0 || (hostPort.indexOf(':') != colon && !hostPort.startsWith("["))) {
        return Optional.of("'" + hostPort + "' is not host:port");
      }
      host = hostPort.substring(0, colon);
      port = Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      return Optional.of("'" + hostPort + "' has no valid port");
    }
    if (port < 1 || port > 65535 || host.isEmpty()) {
      return Optional.of("'" + hostPort + "' is not host:port");
    }
    String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    byte[] address = literal(name);
    boolean loopback = isLoopback(name, address);
    if (loopback && ownPorts.contains(port)) {
      return Optional.of("'" + hostPort + "' is a port of this server itself");
    }
    for (Entry e : entries) {
      if (port >= e.fromPort && port <= e.toPort && hostMatches(e, name, address, loopback)) {
        return Optional.empty();
      }
    }
    return Optional.of("'" + hostPort + "' is not on this server's endpoint allow-list (" + text + ")");
  }

  private static boolean hostMatches(Entry e, String name, byte[] address, boolean loopback) {
    if (e.host.equals("*")) {
      return true;
    }
    if (e.host.equals("loopback")) {
      return loopback;
    }
    if (e.network != null) {
      return address != null && address.length == e.network.length && inPrefix(address, e.network, e.prefix);
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (e.host.startsWith("*.")) {
      return address == null && lower.endsWith(e.host.substring(1));
    }
    return address == null && lower.equals(e.host);
  }

  private static boolean isLoopback(String name, byte[] address) {
    if (address != null) {
      return address.length == 4 ? address[0] == 127 : isV6Loopback(address);
    }
    return name.equalsIgnoreCase("localhost");
  }

  private static boolean isV6Loopback(byte[] a) {
    for (int i = 0; i < 15; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return a[15] == 1;
  }

  private static boolean inPrefix(byte[] address, byte[] network, int prefix) {
    for (int bit = 0; bit < prefix; bit++) {
      int mask = 0x80 >> (bit % 8);
      if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
        return false;
      }
    }
    return true;
  }

  /** The bytes of an IP literal (dotted quad, or IPv6 with colons), else null; never a DNS lookup. */
  static byte[] literal(String host) {
    Matcher m = IPV4.matcher(host);
    if (m.matches()) {
      byte[] b = new byte[4];
      for (int i = 0; i < 4; i++) {
        int v = Integer.parseInt(m.group(i + 1));
        if (v > 255) {
          return null;
        }
        b[i] = (byte) v;
      }
      return b;
    }
    if (host.indexOf(':') >= 0 && host.matches("[0-9A-Fa-f:.]+")) {
      try {
        byte[] b = InetAddress.getByName(host).getAddress();
        return b; // an IPv4-mapped address comes back as its IPv4 bytes
      } catch (UnknownHostException e) {
        return null;
      }
    }
    return null;
  }

  private static Entry entry(String raw) {
    Matcher m = ENTRY.matcher(raw);
    if (!m.matches()) {
      throw new IllegalArgumentException("endpoint allow-list entry '" + raw + "' is not host:port, host:* or host:from-to");
    }
    String host = m.group(1).toLowerCase(Locale.ROOT);
    String ports = m.group(2);
    int from = 0;
    int to = 65535;
    if (!ports.equals("*")) {
      String[] range = ports.split("-");
      from = Integer.parseInt(range[0]);
      to = range.length > 1 ? Integer.parseInt(range[1]) : from;
      if (from < 1 || to > 65535 || from > to) {
        throw new IllegalArgumentException("endpoint allow-list entry '" + raw + "' has no valid port range");
      }
    }
    byte[] network = null;
    int prefix = 0;
    String address = host;
    if (host.contains("/")) {
      address = host.substring(0, host.indexOf('/'));
      prefix = Integer.parseInt(host.substring(host.indexOf('/') + 1));
    }
    if (address.startsWith("[") && address.endsWith("]")) {
      address = address.substring(1, address.length() - 1);
    }
    byte[] literal = literal(address);
    if (literal != null) {
      network = literal;
      prefix = host.contains("/") ? prefix : literal.length * 8;
      if (prefix < 0 || prefix > literal.length * 8) {
        throw new IllegalArgumentException("endpoint allow-list entry '" + raw + "' has no valid prefix length");
      }
    } else if (host.contains("/")) {
      throw new IllegalArgumentException("endpoint allow-list entry '" + raw + "': a /prefix needs an IP address");
    }
    return new Entry(host, network, prefix, from, to);
  }
}
