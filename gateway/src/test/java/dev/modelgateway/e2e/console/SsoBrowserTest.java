package dev.modelgateway.e2e.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.Browser;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Single sign-on in a real browser (Debian's Chromium, headless) against a real OpenID provider
 * ({@link OidcTestProvider}): alice (org_admin), bob (team_admin of team A) and carol (viewer) each sign in through
 * the provider's login page and see and do exactly what their role allows; sign-out ends the session and reaches the
 * provider's logout. The team admin's view is saved to docs/console/sso-team-admin.png.
 */
@E2e
@Browser
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SsoBrowserTest {
    static final Duration PATIENCE = Duration.ofSeconds(60);
    static Vertx vertx;
    static VendorSimulator sim;
    static OidcTestProvider idp;
    static GatewayHarness h;
    static ChromeDriver browser;
    static String base;
    static Path file;
    static String teamA;
    static String teamB;
    static Path screenshots;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(ConsoleBrowserTest.CHROMIUM) && Files.isExecutable(ConsoleBrowserTest.CHROMEDRIVER),
                "Chromium or chromedriver is not installed (run scripts/browser.sh as root): the sign-on browser test is skipped");
        int port = FreePort.pick();
        base = "http://127.0.0.1:" + port;
        idp = OidcTestProvider.start(base, "test");
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway-sso", ".yaml");
        write("team_not_yet");
        h = GatewayHarness.builder().simulator(sim).port(port).configFile(file).setting("GATEWAY_SERVER_PUBLIC_URL", base).start();
        teamA = master("POST", "/api/v1/admin/teams", "{\"name\":\"A\"}").path("id").asText();
        teamB = master("POST", "/api/v1/admin/teams", "{\"name\":\"B\",\"rpm\":50}").path("id").asText();
        master("POST", "/api/v1/admin/keys", "{\"name\":\"a-service\",\"team_id\":\"" + teamA + "\"}");
        master("POST", "/api/v1/admin/keys", "{\"name\":\"b-service\",\"team_id\":\"" + teamB + "\"}");
        write(teamA);
        assertThat(h.send("POST", "/api/v1/admin/reload", null, "authorization", "Bearer " + GatewayHarness.KEY).statusCode()).isEqualTo(200);

        String fixtures = System.getProperty("fixtures.dir", "../fixtures");
        screenshots = Path.of(fixtures).toAbsolutePath().normalize().resolveSibling("docs").resolve("console");
        Files.createDirectories(screenshots);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(ConsoleBrowserTest.CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--force-prefers-reduced-motion", "--lang=en-US");
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(ConsoleBrowserTest.CHROMEDRIVER.toFile())
                .usingAnyFreePort().build(), options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    }

    static void write(String team) throws Exception {
        Files.writeString(file, GatewayHarness.simVendors(sim) + "server:\n  master_key: " + GatewayHarness.KEY + "\n  public_url: " + base
                + "\n" + idp.identityYaml("test", team));
    }

    static JsonNode master(String method, String path, String body) throws Exception {
        return Json.MAPPER.readTree(h.send(method, path, body, "authorization", "Bearer " + GatewayHarness.KEY).body());
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) browser.quit();
        if (h != null) h.close();
        if (sim != null) sim.close().await();
        if (vertx != null) vertx.close().await();
        if (idp != null) idp.close();
        if (file != null) Files.deleteIfExists(file);
    }

    @Test
    @Order(1)
    void anOrgAdminEditsAnotherTeamsLimitsAndTheAuditLogNamesThem() throws Exception {
        signIn("alice", "Alice Admin");
        assertThat(text("who")).contains("org_admin");
        assertThat(browser.findElement(By.id("nav-audit")).isDisplayed()).isTrue();
        show("keys");
        browser.findElement(By.cssSelector("button[aria-label='Edit team B']")).click();
        WebElement rpm = await("the team's edit form", () -> browser.findElement(By.id("team-edit-rpm")));
        rpm.clear();
        rpm.sendKeys("77");
        browser.findElement(By.cssSelector("form[aria-label='Edit team'] button[type=submit]")).click();
        await("the saved limit", () -> text("keys-message").contains("saved"));
        assertThat(master("GET", "/api/v1/admin/teams/" + teamB, null).path("rpm").asLong()).isEqualTo(77);

        show("audit");
        await("alice's change in the audit log", () -> text("audit-table").contains("Alice Admin") && text("audit-table").contains("team.update"));
        assertThat(text("audit-table")).contains("org_admin");
        signOutHere();
    }

    @Test
    @Order(2)
    void aTeamAdminCreatesAKeyInTheirTeamButCannotTouchAnotherTeamOrTheirOwnLimits() throws Exception {
        signIn("bob", "Bob Lead");
        assertThat(text("who")).contains("team_admin(team:" + teamA + ")");
        assertThat(browser.findElement(By.id("nav-audit")).isDisplayed()).isFalse();
        show("keys");
        browser.findElement(By.id("new-name")).sendKeys("bobs-key");
        assertThat(js("return [...document.getElementById('new-team_id').options].map(o => o.text).join(',')")).isEqualTo("A");
        browser.findElement(By.cssSelector("form[aria-label='Create a key'] button[type=submit]")).click();
        String secret = await("the new key's secret", () -> browser.findElement(By.id("new-key-secret"))).getText().strip();
        assertThat(secret).startsWith("pk-");
        assertThat(master("GET", "/api/v1/admin/keys", null).path("data").findValuesAsText("name")).contains("bobs-key");
        // no control to change a team's limits, their own team's included
        assertThat(browser.findElements(By.cssSelector("button[aria-label^='Edit team']"))).isEmpty();
        assertThat(browser.findElements(By.id("team-new-name"))).isEmpty();
        screenshot("sso-team-admin");
        // and a change forced through the API is refused
        assertThat(forced("PATCH", "/api/v1/admin/teams/" + teamA, "{\"rpm\":100000}")).isEqualTo(403);
        assertThat(forced("PATCH", "/api/v1/admin/teams/" + teamB, "{\"rpm\":100000}")).isEqualTo(403);
        // team scoping of the admin API (another part of the work): team B's keys are not listed to team A's admin
        assertThat(text("keys-table")).contains("a-service").doesNotContain("b-service");
        signOutHere();
    }

    @Test
    @Order(3)
    void aViewerSeesKeysAndUsageWithoutAnyControlAndAForcedChangeIsRefused() throws Exception {
        signIn("carol", "Carol Viewer");
        assertThat(text("who")).contains("viewer");
        show("keys");
        assertThat(text("keys-table")).contains("a-service").contains("b-service");
        assertThat(browser.findElements(By.cssSelector("#view button"))).isEmpty();
        assertThat(browser.findElements(By.id("new-name"))).isEmpty();
        show("usage");
        await("the usage screen", () -> browser.findElement(By.id("view")).getText().contains("Usage and cost"));
        String keyId = master("GET", "/api/v1/admin/keys", null).path("data").get(0).path("id").asText();
        assertThat(forced("PATCH", "/api/v1/admin/keys/" + keyId, "{\"rpm\":1}")).isEqualTo(403);
        assertThat(forced("POST", "/api/v1/admin/keys", "{\"name\":\"carols\"}")).isEqualTo(403);
    }

    @Test
    @Order(4)
    void signOutEndsTheSessionAndReachesTheProvidersLogout() throws Exception {
        Cookie session = browser.manage().getCookieNamed("mg_session");
        assertThat(session).isNotNull();
        assertThat(session.isHttpOnly()).isTrue();
        browser.findElement(By.id("signout")).click();
        await("the provider's logout", () -> browser.getCurrentUrl().startsWith(idp.issuer + "/session/end"));
        int status = h.send("GET", "/api/v1/console/me", null, "cookie", "mg_session=" + session.getValue()).statusCode();
        assertThat(status).isEqualTo(401);
    }

    /** Signs in through the console's provider button and the provider's own login page. */
    private static void signIn(String user, String name) {
        browser.manage().deleteAllCookies();
        browser.get(base + "/console/");
        await("the provider's button", () -> browser.findElement(By.id("signin-with-test")).isDisplayed());
        browser.findElement(By.id("signin-with-test")).click();
        await("the provider's login page", () -> browser.findElement(By.id("username")).isDisplayed());
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(user + "-password");
        browser.findElement(By.id("sign-in")).click();
        await("the console signed in as " + name, () -> browser.findElement(By.id("nav")).isDisplayed() && text("who").contains(name));
        await("the usage screen", () -> "usage".equals(browser.findElement(By.tagName("body")).getAttribute("data-screen")));
    }

    /** Signs out; the browser lands on the provider's logout page. */
    private static void signOutHere() {
        browser.findElement(By.id("signout")).click();
        await("the provider's logout", () -> browser.getCurrentUrl().startsWith(idp.issuer + "/session/end"));
    }

    /** A change sent from the page with the session's cookie and CSRF token, as a forged console would: its status. */
    private static long forced(String method, String path, String body) {
        Object status = ((JavascriptExecutor) browser).executeAsyncScript("const done = arguments[arguments.length - 1];"
                + " fetch(arguments[1], { method: arguments[0], headers: { 'content-type': 'application/json', 'x-csrf-token': session.me.csrf_token },"
                + " body: arguments[2] }).then(r => done(r.status), e => done(-1));", method, path, body);
        return ((Number) status).longValue();
    }

    private static void show(String screen) {
        js("location.hash = '#" + screen + "'");
        await("the " + screen + " screen", () -> screen.equals(browser.findElement(By.tagName("body")).getAttribute("data-screen")));
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static void screenshot(String name) throws Exception {
        File png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static <T> T await(String what, Supplier<T> check) {
        AtomicReference<RuntimeException> last = new AtomicReference<>();
        try {
            return Eventually.value(what, PATIENCE, () -> {
                try {
                    return check.get();
                } catch (RuntimeException e) {
                    last.set(e);
                    return null;
                }
            }, value -> value != null && !Boolean.FALSE.equals(value));
        } catch (AssertionError e) {
            if (last.get() != null) e.addSuppressed(last.get());
            throw e;
        }
    }
}
