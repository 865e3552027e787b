package io.tributary.state.forst.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContentNamesTest {
  @TempDir Path tmp;

  @Test
  void sameContentSameNameWhateverTheFileIsCalled() throws Exception {
    Path a = Files.write(tmp.resolve("000012.sst"), "abc".getBytes(StandardCharsets.UTF_8));
    Path b = Files.write(tmp.resolve("000099.sst"), "abc".getBytes(StandardCharsets.UTF_8));
    Path c = Files.write(tmp.resolve("000100.sst"), "abd".getBytes(StandardCharsets.UTF_8));

    // SHA-256("abc") is a well-known test vector.
    assertThat(ContentNames.forFile(a))
        .isEqualTo("shared/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.sst");
    assertThat(ContentNames.forFile(b)).isEqualTo(ContentNames.forFile(a));
    assertThat(ContentNames.forFile(c)).isNotEqualTo(ContentNames.forFile(a));
    assertThat(ContentNames.forBytes("shared/", "abc".getBytes(StandardCharsets.UTF_8), ".sst"))
        .isEqualTo(ContentNames.forFile(a));
  }

  @Test
  void prefixesAndExtensions() throws Exception {
    Path noExt = Files.write(tmp.resolve("MANIFEST"), new byte[0]);
    String name = ContentNames.forFile("jobs/j1/", noExt);
    assertThat(name).matches("jobs/j1/[0-9a-f]{64}");
    assertThat(ContentNames.isContentName(name)).isTrue();
    assertThat(ContentNames.isContentName("shared/000012.sst")).isFalse();
    assertThatThrownBy(() -> ContentNames.forFile("no-slash", noExt)).isInstanceOf(IllegalArgumentException.class);
  }
}
