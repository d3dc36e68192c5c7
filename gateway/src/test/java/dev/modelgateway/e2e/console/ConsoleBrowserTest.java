package dev.modelgateway.e2e.console;

import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real browser: Debian's Chromium, headless, driven through its chromedriver
 * (scripts/browser.sh installs both). Signs in with the master key, creates a key, uses it through the official
 * OpenAI SDK, and sees that use on the usage chart and in the requests list; then the key's own read-only view.
 * Each screen is saved to docs/console/*.png (linked from the README).
 */
class ConsoleBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String MODEL = "platform/vendorB-5.5";
    static final Duration PATIENCE = Duration.ofSeconds(90);

    static GatewayHarness h;
    static ChromeDriver browser;
    static Path screenshots;

    @BeforeAll
    static void start() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium or chromedriver is not installed (run scripts/browser.sh as root): the console's browser test is skipped");
        h = GatewayHarness.start();
        String fixtures = System.getProperty("fixtures.dir", "../fixtures");
        screenshots = Path.of(fixtures).toAbsolutePath().normalize().resolveSibling("docs").resolve("console");
        Files.createDirectories(screenshots);
        ChromeOptions options = new ChromeOptions();
        // Given the binary and the driver, Selenium Manager downloads nothing: the test runs offline.
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--force-prefers-reduced-motion", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() {
        if (browser != null) browser.quit();
        if (h != null) h.close();
    }

    @Test
    void signInCreateAKeyUseItAndSeeItOnTheUsageChartAndTheRequestsList() throws Exception {
        browser.get("http://127.0.0.1:" + h.gateway.port() + "/console/");
        await("the sign-in form", () -> browser.findElement(By.id("signin-key")).isDisplayed());
        screenshot("signin");
        signIn(GatewayHarness.KEY);
        await("the usage screen", () -> "usage".equals(body().getAttribute("data-screen")));
        assertThat(browser.findElement(By.id("who")).getText()).contains("master key");

        // create a key: its secret is shown once
        show("keys");
        browser.findElement(By.id("new-name")).sendKeys("browser-team");
        browser.findElement(By.id("new-rpm")).sendKeys("600");
        browser.findElement(By.id("new-budget_usd")).sendKeys("25");
        browser.findElement(By.cssSelector("form[aria-label='Create a key'] button[type=submit]")).click();
        WebElement secretShown = await("the new key's secret", () -> browser.findElement(By.id("new-key-secret")));
        String secret = secretShown.getText().strip();
        assertThat(secret).startsWith("pk-");
        assertThat(browser.findElement(By.tagName("table")).getText()).contains("browser-team");
        screenshot("keys");

        // edit its limit; then a second key, disabled and deleted
        browser.findElement(By.cssSelector("button[aria-label='Edit browser-team']")).click();
        WebElement rpm = await("the edit form", () -> browser.findElement(By.id("edit-rpm")));
        rpm.clear();
        rpm.sendKeys("900");
        browser.findElement(By.cssSelector("form[aria-label='Edit key'] button[type=submit]")).click();
        await("the saved limit", () -> browser.findElement(By.id("keys-message")).getText().contains("saved")
                && row("browser-team").getText().contains("900"));
        browser.findElement(By.id("new-name")).sendKeys("short-lived");
        browser.findElement(By.cssSelector("form[aria-label='Create a key'] button[type=submit]")).click();
        await("the second key", () -> row("short-lived") != null);
        browser.findElement(By.cssSelector("button[aria-label='Disable short-lived']")).click();
        await("the second key disabled", () -> row("short-lived").getText().contains("disabled"));
        browser.findElement(By.cssSelector("button[aria-label='Delete short-lived']")).click();
        browser.switchTo().alert().accept();
        await("the second key gone", () -> browser.findElement(By.tagName("table")).getText().contains("browser-team")
                && !browser.findElement(By.tagName("table")).getText().contains("short-lived"));
        assertThat((String) js("return JSON.stringify(Object.assign({}, localStorage)) + JSON.stringify(Object.assign({}, sessionStorage)) + document.cookie"))
                .doesNotContain(secret).doesNotContain(GatewayHarness.KEY);

        // use it through the official SDK
        OpenAIClient openai = h.openai(secret);
        for (int i = 0; i < 3; i++) {
            ChatCompletion c = openai.chat().completions().create(ChatCompletionCreateParams.builder()
                    .model(MODEL).addUserMessage("console " + i).build());
            assertThat(c.choices()).isNotEmpty();
        }

        // the usage chart: the rollups catch up within seconds; press Show until they have
        show("usage");
        js("document.getElementById('usage-dimension').value = 'model'");
        await("3 requests on the usage screen", () -> {
            browser.findElement(By.cssSelector("form[aria-label='Usage range and grouping'] button[type=submit]")).click();
            return await("the usage totals", () -> browser.findElement(By.id("usage-total-requests"))).getText().equals("3");
        });
        assertThat(browser.findElements(By.cssSelector("#chart-tokens canvas"))).hasSize(1);
        assertThat(browser.findElement(By.id("chart-cost")).getText()).contains(MODEL);
        screenshot("usage");

        // the requests list and a request's page
        show("requests");
        WebElement keyFilter = browser.findElement(By.id("requests-key"));
        String keyId = (String) js("return Object.entries(session.keyNames).find(([id, n]) => n === 'browser-team')[0]");
        keyFilter.sendKeys(keyId);
        browser.findElement(By.cssSelector("form[aria-label='Filter requests'] button[type=submit]")).click();
        await("3 rows in the requests list", () -> rows("#requests-list tbody tr").size() == 3
                && rows("#requests-list tbody tr").getFirst().getText().contains(MODEL));
        assertThat(rows("#requests-list tbody tr").getFirst().getText()).contains("browser-team").contains("200");
        screenshot("requests");
        rows("#requests-list tbody tr a").getFirst().click();
        WebElement detail = await("the request's page", () -> browser.findElement(By.id("request-detail")));
        assertThat(detail.getText()).contains("Trace id").contains(MODEL);
        screenshot("request");

        show("limits");
        await("the key's buckets", () -> browser.findElement(By.tagName("table")).getText().contains("browser-team"));
        assertThat(browser.findElements(By.cssSelector("table meter"))).isNotEmpty();
        screenshot("limits");
        show("models");
        await("the catalogue", () -> browser.findElement(By.tagName("table")).getText().contains(MODEL));
        screenshot("models");

        // narrow screen: the navigation wraps, tables scroll inside their box, nothing overflows the page
        browser.manage().window().setSize(new Dimension(390, 900));
        show("usage");
        await("the usage totals", () -> browser.findElement(By.id("usage-total-requests")));
        long overflow = (Long) js("return document.documentElement.scrollWidth - document.documentElement.clientWidth");
        assertThat(overflow).isLessThanOrEqualTo(0);
        screenshot("usage-narrow");
        browser.manage().window().setSize(new Dimension(1280, 1000));

        // the key's own read-only view
        browser.findElement(By.id("signout")).click();
        await("the sign-in form", () -> browser.findElement(By.id("signin-key")).isDisplayed());
        signIn(secret);
        await("the key's usage screen", () -> browser.findElement(By.id("who")).getText().contains("browser-team"));
        assertThat(browser.findElement(By.cssSelector("nav a[href='#keys']")).isDisplayed()).isFalse();
        await("the key's own totals", () -> browser.findElement(By.id("usage-total-requests")).getText().equals("3"));
        assertThat(browser.findElement(By.tagName("dl")).getText()).contains("900").contains("$25");
        screenshot("team-view");
    }

    private static void signIn(String key) {
        WebElement input = browser.findElement(By.id("signin-key"));
        input.clear();
        input.sendKeys(key);
        browser.findElement(By.cssSelector("#signin-form button[type=submit]")).click();
        await("the navigation", () -> browser.findElement(By.id("nav")).isDisplayed());
    }

    private static void show(String screen) {
        js("location.hash = '#" + screen + "'");
        await("the " + screen + " screen", () -> screen.equals(body().getAttribute("data-screen")));
    }

    /** The keys table's row of a key, or null. */
    private static WebElement row(String name) {
        return rows("table tbody tr").stream().filter(r -> r.getText().startsWith(name + " ")).findFirst().orElse(null);
    }

    private static WebElement body() {
        return browser.findElement(By.tagName("body"));
    }

    private static List<WebElement> rows(String css) {
        return browser.findElements(By.cssSelector(css));
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static void screenshot(String name) throws IOException {
        File png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), screenshots.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Polls until {@code check} gives a true or non-null value; the page, the ledger and the rollups are asynchronous. */
    private static <T> T await(String what, Supplier<T> check) {
        Instant deadline = Instant.now().plus(PATIENCE);
        RuntimeException last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                T value = check.get();
                if (value != null && !Boolean.FALSE.equals(value)) return value;
            } catch (RuntimeException e) {
                last = e;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
        throw new AssertionError("waited " + PATIENCE.toSeconds() + " s for " + what, last);
    }
}
