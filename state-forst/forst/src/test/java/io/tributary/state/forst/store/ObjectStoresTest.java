package io.tributary.state.forst.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectStoresTest {
  @TempDir Path tmp;

  @Test
  void fileUrlsAndPlainPathsOpenLocalStores() throws Exception {
    try (ObjectStore byUri = ObjectStores.open(tmp.resolve("a").toUri().toString());
        ObjectStore byPath = ObjectStores.open(tmp.resolve("a").toString())) {
      assertThat(byUri).isInstanceOf(LocalObjectStore.class);
      byUri.put("x", new byte[] {1});
      assertThat(byPath.getBytes("x")).containsExactly(1);
      assertThat(byPath.url()).isEqualTo(byUri.url());
    }
  }

  @Test
  void s3UrlsNameBucketAndPrefix() {
    Map<String, String> env = Map.of("TRIBUTARY_S3_ENDPOINT", "http://127.0.0.1:9", "TRIBUTARY_S3_PATH_STYLE", "true");
    try (ObjectStore store = ObjectStores.open("s3://my-bucket/jobs/a", env::get)) {
      assertThat(store).isInstanceOf(S3ObjectStore.class);
      assertThat(((S3ObjectStore) store).bucket()).isEqualTo("my-bucket");
      assertThat(((S3ObjectStore) store).prefix()).isEqualTo("jobs/a/");
      assertThat(store.url()).isEqualTo("s3://my-bucket/jobs/a/");
    }
    try (ObjectStore store = ObjectStores.open("s3://my-bucket", env::get)) {
      assertThat(store.url()).isEqualTo("s3://my-bucket/");
    }
  }

  @Test
  void badUrlsSayWhatIsSupported() {
    assertThatThrownBy(() -> ObjectStores.open("gs://bucket/x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("s3://bucket/prefix");
    assertThatThrownBy(() -> ObjectStores.open(""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file:///");
    assertThatThrownBy(() -> ObjectStores.open("s3:///nobucket", k -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bucket");
  }
}
