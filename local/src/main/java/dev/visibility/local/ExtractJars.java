package dev.visibility.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * {@code ./suite}'s extraction of the services' executable jars (internal: {@code extract-jars APPS [NAME JAR STAMP]...}),
 * all in one JVM. Each jar becomes {@code APPS/NAME/NAME.jar}, the application's classes with a manifest whose
 * {@code Main-Class} is the application's and whose {@code Class-Path} names {@code lib/*.jar} in the order of the jar's
 * classpath index, beside {@code APPS/NAME/lib/} and {@code APPS/NAME/source.stamp} (STAMP, which {@code ./suite} compares
 * with the jar's size and time to know when to extract again). This is the layout that Spring Boot's
 * {@code -Djarmode=tools extract} writes, which class-data archives and ahead-of-time caches need (they cannot hold
 * classes of nested jars). Nine of those extractions were nine JVMs, and 1,500 {@code cmp} processes to share the
 * libraries: 16 CPU-seconds of a first {@code up}.
 *
 * <p>The services share most libraries: a library is written once into {@code APPS/.shared/} and hard-linked into each
 * {@code lib/} whose jar holds the same bytes (the same name, size and CRC-32 as the nested jar's entry); a library that
 * differs stays the service's own. The application jar's entries are stored, not compressed: it is read at every start
 * and is a few megabytes. A service's directory is replaced whole by a rename, so a failed extraction leaves the one
 * before it.
 */
final class ExtractJars {

    static final String SHARED = ".shared";
    private static final String LIB = "BOOT-INF/lib/";
    private static final String CLASSES = "BOOT-INF/classes/";
    private static final String LOADER = "org/springframework/boot/loader/";
    /** Manifest attributes of the launcher that the extracted application jar must not carry. */
    private static final Set<String> LAUNCHER_ATTRIBUTES = Set.of("Main-Class", "Start-Class", "Spring-Boot-Classes",
            "Spring-Boot-Lib", "Spring-Boot-Classpath-Index", "Spring-Boot-Layers-Index");
    /** Root entries of the executable jar that serve its launcher only (its nested-jar file system). */
    private static final Set<String> LAUNCHER_ENTRIES = Set.of("META-INF/MANIFEST.MF",
            "META-INF/services/java.nio.file.spi.FileSystemProvider");

    /** A nested library as its jar lists it: the bytes are the same when name, size and CRC-32 are. */
    record Library(String name, long size, long crc) {
    }

    private final Path apps;
    private final Path shared;
    /** Libraries already in {@link #shared} for this run, by name: the one written or checked first. */
    private final Map<String, Library> sharedNow = new ConcurrentHashMap<>();

    ExtractJars(Path apps) {
        this.apps = apps;
        this.shared = apps.resolve(SHARED);
    }

    /** {@code [NAME JAR STAMP]...}: extracts each, side by side; 0 when all were, 1 when one failed (named on err). */
    int run(List<String> triples, java.io.PrintStream err) {
        if (triples.isEmpty() || triples.size() % 3 != 0) {
            throw new CliException(2, "extract-jars APPS NAME JAR STAMP [NAME JAR STAMP]...");
        }
        for (int i = 0; i < triples.size(); i += 3) {
            if (!triples.get(i).matches("[a-z][a-z0-9-]*")) {
                throw new CliException(2, "not a service name: " + triples.get(i));
            }
        }
        try {
            Files.createDirectories(shared);
        } catch (IOException e) {
            throw new CliException(1, "cannot create " + shared + ": " + e.getMessage());
        }
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), triples.size() / 3));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            Map<String, Future<?>> jobs = new LinkedHashMap<>();
            for (int i = 0; i < triples.size(); i += 3) {
                String name = triples.get(i);
                Path jar = Path.of(triples.get(i + 1));
                String stamp = triples.get(i + 2);
                jobs.put(name, pool.submit(() -> {
                    extract(name, jar, stamp);
                    return null;
                }));
            }
            int status = 0;
            for (Map.Entry<String, Future<?>> job : jobs.entrySet()) {
                try {
                    job.getValue().get();
                } catch (java.util.concurrent.ExecutionException e) {
                    err.println(job.getKey() + ": could not extract: " + e.getCause());
                    status = 1;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return 1;
                }
            }
            return status;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Extracts {@code jar} into {@code APPS/name}, replacing what was there. */
    void extract(String name, Path jar, String stamp) throws IOException {
        Path target = apps.resolve(name);
        Path temporary = apps.resolve("." + name + ".tmp");
        deleteTree(temporary);
        Files.createDirectories(temporary.resolve("lib"));
        try (JarFile source = new JarFile(jar.toFile(), false)) {
            Manifest manifest = source.getManifest();
            String startClass = manifest == null ? null : manifest.getMainAttributes().getValue("Start-Class");
            if (startClass == null) {
                throw new IOException(jar + " is not an executable Spring Boot jar (no Start-Class)");
            }
            List<String> classPath = new ArrayList<>();
            for (String library : libraryOrder(source, manifest)) {
                ZipEntry entry = source.getEntry(LIB + library);
                if (entry == null) {
                    throw new IOException(jar + " indexes " + library + " but does not hold it");
                }
                writeLibrary(source, entry, new Library(library, entry.getSize(), entry.getCrc()),
                        temporary.resolve("lib").resolve(library));
                classPath.add("lib/" + library);
            }
            writeApplication(source, manifest, startClass, classPath, temporary.resolve(name + ".jar"));
        } catch (IOException | RuntimeException e) {
            deleteTree(temporary);
            throw e;
        }
        Files.writeString(temporary.resolve("source.stamp"), stamp + "\n", StandardCharsets.UTF_8);
        deleteTree(target);
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The nested libraries in class-path order: the jar's classpath index, else the order of its entries. */
    private static List<String> libraryOrder(JarFile source, Manifest manifest) throws IOException {
        List<String> order = new ArrayList<>();
        String indexName = manifest.getMainAttributes().getValue("Spring-Boot-Classpath-Index");
        ZipEntry index = indexName == null ? null : source.getEntry(indexName);
        if (index != null) {
            String text;
            try (InputStream in = source.getInputStream(index)) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            for (String line : text.split("\n")) {
                // - "BOOT-INF/lib/name.jar"
                int open = line.indexOf('"');
                int close = line.lastIndexOf('"');
                if (open >= 0 && close > open) {
                    String path = line.substring(open + 1, close);
                    if (path.startsWith(LIB)) {
                        order.add(path.substring(LIB.length()));
                    }
                }
            }
            return order;
        }
        source.stream().map(ZipEntry::getName)
                .filter(n -> n.startsWith(LIB) && n.length() > LIB.length() && n.indexOf('/', LIB.length()) < 0)
                .forEach(n -> order.add(n.substring(LIB.length())));
        return order;
    }

    /**
     * Puts the library at {@code destination}: a hard link to the shared copy when that holds the same bytes,
     * else its own copy, which becomes the shared one when there is none yet in this run.
     */
    private void writeLibrary(ZipFile source, ZipEntry entry, Library library, Path destination) throws IOException {
        Path sharedFile = shared.resolve(library.name());
        Library first = sharedNow.computeIfAbsent(library.name(), n -> adopt(source, entry, library, sharedFile));
        if (first.equals(library)) {
            try {
                Files.createLink(destination, sharedFile);
                return;
            } catch (IOException | UnsupportedOperationException e) {
                // no hard links here (another file system): a copy of its own below
            }
        }
        copy(source, entry, destination);
    }

    /**
     * The shared copy of {@code library} for this run: the one in {@link #shared} when it holds the same bytes (an
     * earlier extraction's, which other services' links and archives use), else this jar's, written now.
     */
    private Library adopt(ZipFile source, ZipEntry entry, Library library, Path sharedFile) {
        try {
            if (Files.isRegularFile(sharedFile) && Files.size(sharedFile) == library.size()
                    && crc(sharedFile) == library.crc()) {
                return library;
            }
            Path written = shared.resolve("." + library.name() + "." + ProcessHandle.current().pid() + ".tmp");
            copy(source, entry, written);
            // a rename replaces the name only: services extracted before keep their links to the bytes they had
            Files.move(written, sharedFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return library;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(ZipFile source, ZipEntry entry, Path destination) throws IOException {
        try (InputStream in = source.getInputStream(entry)) {
            Files.copy(in, destination, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static long crc(Path file) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0;) {
                crc.update(buffer, 0, n);
            }
        }
        return crc.getValue();
    }

    /**
     * The application jar: the classes and resources under {@code BOOT-INF/classes/} at its root, then the executable
     * jar's own root entries but for its launcher; the manifest names the application's main class and the libraries.
     */
    private static void writeApplication(JarFile source, Manifest fat, String startClass, List<String> classPath,
            Path destination) throws IOException {
        Manifest manifest = new Manifest();
        Attributes attributes = manifest.getMainAttributes();
        attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        for (Map.Entry<Object, Object> attribute : fat.getMainAttributes().entrySet()) {
            if (!LAUNCHER_ATTRIBUTES.contains(attribute.getKey().toString())) {
                attributes.put(attribute.getKey(), attribute.getValue());
            }
        }
        attributes.put(Attributes.Name.MAIN_CLASS, startClass);
        attributes.put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        Set<String> written = new HashSet<>();
        try (OutputStream file = Files.newOutputStream(destination);
                ZipOutputStream out = new ZipOutputStream(new java.io.BufferedOutputStream(file, 1 << 16))) {
            written.add("META-INF/");
            store(out, "META-INF/", new byte[0]);
            java.io.ByteArrayOutputStream manifestBytes = new java.io.ByteArrayOutputStream();
            manifest.write(manifestBytes);
            written.add(JarFile.MANIFEST_NAME);
            store(out, JarFile.MANIFEST_NAME, manifestBytes.toByteArray());
            List<ZipEntry> classes = new ArrayList<>();
            List<ZipEntry> root = new ArrayList<>();
            source.stream().forEach(entry -> {
                String n = entry.getName();
                if (n.startsWith(CLASSES)) {
                    if (n.length() > CLASSES.length()) {
                        classes.add(entry);
                    }
                } else if (!n.startsWith("BOOT-INF/") && !n.startsWith(LOADER) && !LAUNCHER_ENTRIES.contains(n)) {
                    root.add(entry);
                }
            });
            for (ZipEntry entry : classes) {
                String n = entry.getName().substring(CLASSES.length());
                if (written.add(n)) {
                    store(out, n, read(source, entry));
                }
            }
            for (ZipEntry entry : root) {
                if (written.add(entry.getName())) {
                    store(out, entry.getName(), read(source, entry));
                }
            }
        }
    }

    private static byte[] read(ZipFile source, ZipEntry entry) throws IOException {
        if (entry.isDirectory()) {
            return new byte[0];
        }
        try (InputStream in = source.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }

    private static void store(ZipOutputStream out, String name, byte[] bytes) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(bytes.length);
        entry.setCompressedSize(bytes.length);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        entry.setCrc(crc.getValue());
        out.putNextEntry(entry);
        out.write(bytes);
        out.closeEntry();
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.delete(path);
                } catch (NoSuchFileException e) {
                    // gone already
                }
            }
        }
    }
}
