package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build fails if a test class would silently never run: surefire runs {@code *Test} and
 * failsafe {@code *IT}, so every class with test methods must be named so.
 */
class TestNamingTest {
  private static final Pattern TEST_METHOD = Pattern.compile("@(Test|ParameterizedTest|RepeatedTest|TestFactory)\\b");

  @Test
  void everyClassWithTestsIsNamedTestOrIT() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<String> misnamed;
    try (Stream<Path> files = Files.walk(root)) {
      misnamed = files
          .filter(p -> p.toString().contains("/src/test/java/") && p.toString().endsWith(".java"))
          .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
          .filter(TestNamingTest::hasTests)
          .map(p -> p.getFileName().toString().replace(".java", ""))
          .filter(name -> !name.endsWith("Test") && !name.endsWith("IT"))
          .toList();
    }
    assertThat(misnamed).as("test classes that surefire/failsafe would never run").isEmpty();
  }

  @Test
  void theCheckSeesTheTestsOfEveryModule() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    try (Stream<Path> files = Files.walk(root)) {
      long modulesWithTests = files
          .filter(p -> p.toString().endsWith("/src/test/java"))
          .count();
      assertThat(modulesWithTests).as("the walk starts at the repository root").isGreaterThanOrEqualTo(5);
    }
  }

  /** Whether the file declares test methods in a class that runs itself (abstract bases run through subclasses). */
  private static boolean hasTests(Path file) {
    try {
      String text = Files.readString(file);
      return TEST_METHOD.matcher(text).find() && !text.contains("abstract class ");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
