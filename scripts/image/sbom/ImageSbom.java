import com.github.packageurl.PackageURL;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import org.cyclonedx.Version;
import org.cyclonedx.generators.BomGeneratorFactory;
import org.cyclonedx.model.Bom;
import org.cyclonedx.model.Component;
import org.cyclonedx.model.Dependency;
import org.cyclonedx.model.ExternalReference;
import org.cyclonedx.model.Hash;
import org.cyclonedx.model.License;
import org.cyclonedx.model.LicenseChoice;
import org.cyclonedx.model.OrganizationalEntity;
import org.cyclonedx.model.Property;
import org.cyclonedx.model.license.Expression;
import org.cyclonedx.parsers.JsonParser;

/**
 * The container image's SBOM, CycloneDX 1.6 JSON (docs/operations/container-image.md), with CycloneDX's own library:
 * <pre>
 *   build OUT MAVEN_BOM DEBS_TSV RUNTIME_PROPERTIES IMAGE_NAME VERSION DIGEST SOURCE_DATE_EPOCH
 *   check FILE
 * </pre>
 * {@code build} takes what cyclonedx-maven-plugin found in the jar (the gateway and every library it bundles, with
 * their dependency graph) and adds what else is in the image: the Java runtime ({@code RUNTIME_PROPERTIES}: its
 * {@code release} file's {@code MODULES}, and its JVM's {@code java.vendor}, {@code java.vendor.version} and
 * {@code java.runtime.version}) and the Debian packages of the base ({@code DEBS_TSV}: package, version, architecture, source, SHA-256
 * of the .deb, one a line), under the image itself as the described component. Everything in it comes from the
 * inputs, and its time is SOURCE_DATE_EPOCH, so that the same image gives the same document. Both commands validate
 * the document against the CycloneDX 1.6 JSON schema the library ships, and fail on any error.
 */
public final class ImageSbom {
    private static final Version SPEC = Version.VERSION_16;

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("check")) {
            check(new File(args[1]));
        } else if (args.length == 9 && args[0].equals("build")) {
            build(args);
        } else {
            System.err.println("usage: ImageSbom build OUT MAVEN_BOM DEBS_TSV RUNTIME_PROPERTIES IMAGE_NAME VERSION DIGEST SOURCE_DATE_EPOCH | check FILE");
            System.exit(2);
        }
    }

    private static void build(String[] a) throws Exception {
        Path out = Path.of(a[1]);
        Bom bom = new JsonParser().parse(new File(a[2]));
        List<String[]> debs = Files.readAllLines(Path.of(a[3])).stream().filter(l -> !l.isBlank()).map(l -> l.split("\t", -1)).toList();
        Properties runtimeFacts = runtimeProperties(Path.of(a[4]));
        String name = a[5], version = a[6], digest = a[7];
        long epoch = Long.parseLong(a[8]);

        Component image = new Component();
        image.setType(Component.Type.CONTAINER);
        image.setName(name);
        image.setVersion(version);
        // pkg:oci names an image by its manifest digest (purl-spec, types: oci)
        TreeMap<String, String> tag = new TreeMap<>();
        tag.put("tag", version);
        image.setPurl(new PackageURL("oci", null, name, digest, tag, null).canonicalize());
        image.setBomRef(image.getPurl());
        image.setLicenses(licenseId("Apache-2.0"));

        // the gateway: the plugin's described component becomes one of the image's, its dependency graph kept
        Component gateway = bom.getMetadata().getComponent();
        List<Component> components = new ArrayList<>();
        components.add(gateway);
        components.addAll(bom.getComponents());
        Component runtime = runtime(runtimeFacts);
        components.add(runtime);
        Component os = new Component();
        os.setType(Component.Type.OPERATING_SYSTEM);
        os.setName("debian");
        os.setVersion(debianVersion(debs));
        os.setBomRef("debian-" + os.getVersion());
        os.setDescription("the base: these Debian packages unpacked, without their maintainer scripts, no shell, no package manager");
        components.add(os);
        List<Dependency> dependencies = new ArrayList<>(bom.getDependencies() == null ? List.of() : bom.getDependencies());
        Dependency osPackages = new Dependency(os.getBomRef());
        for (String[] d : debs) {
            Component deb = debian(d, os.getVersion());
            components.add(deb);
            osPackages.addDependency(new Dependency(deb.getBomRef()));
        }
        dependencies.add(osPackages);
        Dependency imageDeps = new Dependency(image.getBomRef());
        for (Component c : List.of(gateway, runtime, os)) imageDeps.addDependency(new Dependency(c.getBomRef()));
        dependencies.add(0, imageDeps);

        bom.getMetadata().setComponent(image);
        bom.getMetadata().setTimestamp(new Date(epoch * 1000));
        bom.setComponents(components);
        bom.setDependencies(dependencies);
        // the same image, the same serial number: a name-based UUID of its digest (RFC 4122, version 3)
        bom.setSerialNumber("urn:uuid:" + UUID.nameUUIDFromBytes(digest.getBytes(StandardCharsets.UTF_8)));
        bom.setVersion(1);
        Files.writeString(out, BomGeneratorFactory.createJson(SPEC, bom).toJsonString() + "\n");
        check(out.toFile());
    }

    /** The jlinked runtime, as its release file and its JVM describe it. */
    private static Component runtime(Properties p) {
        Component c = new Component();
        c.setType(Component.Type.PLATFORM);
        OrganizationalEntity supplier = new OrganizationalEntity();
        supplier.setName(p.getProperty("java.vendor"));
        c.setSupplier(supplier);
        c.setName("java-runtime");
        c.setVersion(p.getProperty("java.runtime.version"));
        c.setDescription(p.getProperty("java.vendor.version") + " cut by jlink to the gateway's modules, in /opt/model-gateway/runtime");
        c.setBomRef("java-runtime-" + c.getVersion());
        LicenseChoice licences = new LicenseChoice();
        // OpenJDK's licence, with the exception that lets programs run on it keep their own (runtime/legal/java.base)
        licences.setExpression(new Expression("GPL-2.0-only WITH Classpath-exception-2.0"));
        c.setLicenses(licences);
        c.addProperty(property("java:modules", p.getProperty("MODULES")));
        return c;
    }

    /** One Debian package: its purl (purl-spec, types: deb), the .deb's digest, where its copyright file lies. */
    private static Component debian(String[] d, String debianVersion) throws Exception {
        String pkg = d[0], version = d[1], arch = d[2], source = d[3], sha256 = d[4];
        TreeMap<String, String> qualifiers = new TreeMap<>();
        qualifiers.put("arch", arch);
        qualifiers.put("distro", "debian-" + debianVersion);
        if (!source.isEmpty() && !source.equals(pkg)) qualifiers.put("upstream", source);
        Component c = new Component();
        c.setType(Component.Type.LIBRARY);
        c.setName(pkg);
        c.setVersion(version);
        c.setPurl(new PackageURL("deb", "debian", pkg, version, qualifiers, null).canonicalize());
        c.setBomRef(c.getPurl());
        c.addHash(new Hash(Hash.Algorithm.SHA_256, sha256));
        ExternalReference copyright = new ExternalReference();
        copyright.setType(ExternalReference.Type.LICENSE);
        copyright.setUrl("file:///usr/share/doc/" + pkg + "/copyright");
        c.addExternalReference(copyright);
        return c;
    }

    /** Debian's release, from base-files' version ({@code 12.4+deb12u13}: 12). */
    private static String debianVersion(List<String[]> debs) {
        return debs.stream().filter(d -> d[0].equals("base-files")).map(d -> d[1].replaceAll("^(\\d+).*", "$1")).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("base-files is not among the Debian packages"));
    }

    /** The runtime's facts, each required: a runtime that does not say them is not one this program knows. */
    private static Properties runtimeProperties(Path file) throws Exception {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(file)) {
            p.load(in);
        }
        p.replaceAll((k, v) -> v.toString().replaceAll("^\"|\"$", ""));  // the release file quotes its values
        for (String key : List.of("MODULES", "java.vendor", "java.vendor.version", "java.runtime.version")) {
            if (p.getProperty(key, "").isBlank()) throw new IllegalArgumentException(file + " does not say " + key);
        }
        return p;
    }

    private static LicenseChoice licenseId(String spdx) {
        License l = new License();
        l.setId(spdx);
        LicenseChoice choice = new LicenseChoice();
        choice.addLicense(l);
        return choice;
    }

    private static Property property(String name, String value) {
        Property p = new Property();
        p.setName(name);
        p.setValue(value);
        return p;
    }

    private static void check(File file) throws Exception {
        var errors = new JsonParser().validate(file, SPEC);
        if (!errors.isEmpty()) {
            errors.forEach(e -> System.err.println("sbom: " + file + ": " + e.getMessage()));
            System.exit(1);
        }
        Bom bom = new JsonParser().parse(file);
        System.out.println("sbom: " + file + ": valid CycloneDX " + SPEC.getVersionString() + ", " + bom.getComponents().size() + " components");
    }
}
