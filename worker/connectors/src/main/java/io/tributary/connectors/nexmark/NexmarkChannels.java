package io.tributary.connectors.nexmark;

/**
 * Bid channel names and URLs, each a pure function of {@code (seed, channel)}, built on first use
 * and cached. Not thread-safe.
 */
final class NexmarkChannels {
  private static final int CHANNELS = 10_000;

  private final long seed;
  private final String[] names = new String[CHANNELS];
  private final String[] urls = new String[CHANNELS];
  private final String[] hotUrls;
  private final NexmarkRandom random = new NexmarkRandom();

  NexmarkChannels(long seed, int hotChannels) {
    this.seed = seed;
    this.hotUrls = new String[hotChannels];
    for (int i = 0; i < hotChannels; i++) {
      random.reseed(seed * 31 - 1 - i);
      hotUrls[i] = baseUrl(random);
    }
  }

  String hotUrl(int i) {
    return hotUrls[i];
  }

  String name(int channel) {
    String name = names[channel];
    if (name == null) {
      name = "channel-" + channel;
      names[channel] = name;
    }
    return name;
  }

  /** Nine in ten channel URLs carry a {@code channel_id} parameter, as in Beam. */
  String url(int channel) {
    String url = urls[channel];
    if (url == null) {
      random.reseed(seed * 31 + channel);
      url = baseUrl(random);
      if (random.nextInt(10) > 0) {
        url = url + "&channel_id=" + Math.abs(Integer.reverse(channel));
      }
      urls[channel] = url;
    }
    return url;
  }

  private static String baseUrl(NexmarkRandom r) {
    return "https://www.nexmark.com/" + NexmarkStrings.nextString(r, 5, '_') + '/'
        + NexmarkStrings.nextString(r, 5, '_') + '/' + NexmarkStrings.nextString(r, 5, '_')
        + "/item.htm?query=1";
  }
}
