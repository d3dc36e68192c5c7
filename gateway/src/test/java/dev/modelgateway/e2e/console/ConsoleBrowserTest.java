package dev.modelgateway.e2e.console;

import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.testing.Browser;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
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
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real browser: Debian's Chromium, headless, driven through its chromedriver
 * (scripts/browser.sh installs both). Signs in with the master key, creates a team and a key in it, uses the key
 * through the official OpenAI SDK, and sees that use on the usage chart (by model and by team) and in the requests
 * list; reads the audit log, the limits with budget periods, a cooling deployment; then the key's own read-only view
 * with what is left of its buckets and its team's.
 * Each screen is saved to docs/console/*.png (linked from the README).
 */
@E2e
@Browser
class ConsoleBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String MODEL = "platform/vendorB-5.5";
    /** The model whose only deployment the test makes cool down. */
    static final String COOLED = "platform/vendorA-sonnet-5";
    static final Duration PATIENCE = Duration.ofSeconds(90);

    static GatewayHarness h;
    static ChromeDriver browser;
    static Path screenshots;

    @BeforeAll
    static void start() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium or chromedriver is not installed (run scripts/browser.sh as root): the console's browser test is skipped");
        // a deployment cools after 3 failures in a row, for long enough to be seen on the models screen
        h = GatewayHarness.builder().breaker(new CircuitBreaker.Thresholds(3, Duration.ofMinutes(5))).start();
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

        // create a team with a monthly budget
        show("keys");
        assertEveryControlIsLabelled();
        browser.findElement(By.id("team-new-name")).sendKeys("browser-squad");
        browser.findElement(By.id("team-new-rpm")).sendKeys("10");
        browser.findElement(By.id("team-new-budget_usd")).sendKeys("50");
        choose("team-new-budget_period", "month");
        browser.findElement(By.cssSelector("form[aria-label='Create a team'] button[type=submit]")).click();
        await("the new team", () -> browser.findElement(By.id("keys-message")).getText().contains("browser-squad created")
                && browser.findElement(By.id("teams-table")).getText().contains("$50.00 a month"));

        // create a key in it, with a weekly budget: its secret is shown once
        browser.findElement(By.id("new-name")).sendKeys("browser-team");
        choose("new-team_id", "browser-squad");
        choose("new-budget_period", "week");
        browser.findElement(By.id("new-rpm")).sendKeys("600");
        browser.findElement(By.id("new-budget_usd")).sendKeys("25");
        browser.findElement(By.cssSelector("form[aria-label='Create a key'] button[type=submit]")).click();
        WebElement secretShown = await("the new key's secret", () -> browser.findElement(By.id("new-key-secret")));
        String secret = secretShown.getText().strip();
        assertThat(secret).startsWith("pk-");
        assertThat(row("browser-team").getText()).contains("browser-squad").contains("$25.00 a week");
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
        // the totals are written before the charts are drawn (a busy machine shows the gap): wait for the one chart
        await("the tokens chart drawn", () -> browser.findElements(By.cssSelector("#chart-tokens canvas")).size() == 1);
        assertThat(browser.findElements(By.cssSelector("#chart-tokens canvas"))).hasSize(1);
        assertThat(browser.findElement(By.id("chart-cost")).getText()).contains(MODEL);
        screenshot("usage");
        // by user: the key belongs to nobody, so no group; the choice is offered and answered
        js("document.getElementById('usage-dimension').value = 'user'");
        browser.findElement(By.cssSelector("form[aria-label='Usage range and grouping'] button[type=submit]")).click();
        await("the usage by user", () -> browser.findElement(By.id("usage-out")).getText().contains("By user"));
        // the same use cut by team
        js("document.getElementById('usage-dimension').value = 'team'");
        browser.findElement(By.cssSelector("form[aria-label='Usage range and grouping'] button[type=submit]")).click();
        await("the team on the cost chart", () -> browser.findElement(By.id("chart-cost")).getText().contains("browser-squad"));
        assertThat(browser.findElement(By.id("usage-out")).getText()).contains("By team");
        assertThat(browser.findElement(By.id("usage-groups")).getText()).contains("browser-squad");
        screenshot("usage-team");

        // the requests list and a request's page
        show("requests");
        WebElement keyFilter = browser.findElement(By.id("requests-key"));
        String keyId = (String) js("return Object.entries(session.keyNames).find(([id, n]) => n === 'browser-team')[0]");
        keyFilter.sendKeys(keyId);
        browser.findElement(By.cssSelector("form[aria-label='Filter requests'] button[type=submit]")).click();
        await("3 rows in the requests list", () -> rows("#requests-list tbody tr").size() == 3
                && rows("#requests-list tbody tr").getFirst().getText().contains(MODEL));
        assertThat(rows("#requests-list tbody tr").getFirst().getText()).contains("browser-team").contains("200");
        assertThat(browser.findElement(By.cssSelector("#requests-list thead")).getText()).contains("User");
        assertThat(browser.findElement(By.id("requests-user")).getAttribute("maxlength")).isEqualTo("40");
        screenshot("requests");
        rows("#requests-list tbody tr a").getFirst().click();
        WebElement detail = await("the request's page", () -> browser.findElement(By.id("request-detail")));
        assertThat(detail.getText()).contains("Trace id").contains(MODEL);
        screenshot("request");

        // the audit log: the team's and the key's creation, filtered by action with the keyboard
        show("audit");
        assertEveryControlIsLabelled();
        await("the creations in the audit log", () -> {
            String audit = browser.findElement(By.id("audit-table")).getText();
            return audit.contains("team.create") && audit.contains("browser-squad") && audit.contains("key.create")
                    && audit.contains("key.update") && audit.contains("rpm: 600 → 900");
        });
        screenshot("audit");
        WebElement action = browser.findElement(By.id("audit-action"));
        action.sendKeys("team.create");
        browser.findElement(By.id("audit-target")).sendKeys(Keys.ENTER);
        await("only team creations", () -> rows("#audit-table tbody tr").size() == 1
                && rows("#audit-table tbody tr").getFirst().getText().contains("browser-squad"));

        show("limits");
        await("the key's buckets", () -> browser.findElement(By.id("limits-keys")).getText().contains("browser-team"));
        assertThat(browser.findElements(By.cssSelector("table meter"))).isNotEmpty();
        assertThat(browser.findElement(By.id("limits-keys")).getText()).contains("$25.00 a week").contains("browser-squad");
        assertThat(browser.findElement(By.id("limits-teams")).getText()).contains("browser-squad").contains("$50.00 a month")
                .contains("of 10 left");
        screenshot("limits");

        // a deployment failing 3 times in a row cools down: the models screen shows it
        h.sim.queueFault("anthropic", "status=500;times=3");
        assertThat(h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + COOLED + "\",\"platform_options\":{\"max_retries\":2},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"fail\"}]}").statusCode()).isGreaterThanOrEqualTo(500);
        show("models");
        await("the catalogue", () -> browser.findElement(By.id("models-table")).getText().contains(MODEL));
        WebElement cooling = await("the cooling deployment", () -> rows("#deployments-table tbody tr").stream()
                .filter(r -> r.getText().startsWith(COOLED + " ") && r.getText().contains("cooling")).findFirst().orElse(null));
        assertThat(cooling.getText()).contains("open").contains("UTC");
        assertThat(rows("#deployments-table tbody tr").stream().filter(r -> r.getText().startsWith(MODEL + " ")).findFirst().orElseThrow()
                .getText()).contains("ready").contains("closed");
        js("document.getElementById('deployments-title').scrollIntoView()");
        screenshot("models");

        // narrow screen: the navigation wraps, tables scroll inside their box, nothing overflows the page
        browser.manage().window().setSize(new Dimension(390, 900));
        show("usage");
        await("the usage totals", () -> browser.findElement(By.id("usage-total-requests")));
        long overflow = (Long) js("return document.documentElement.scrollWidth - document.documentElement.clientWidth");
        assertThat(overflow).isLessThanOrEqualTo(0);
        screenshot("usage-narrow");
        for (String screen : List.of("keys", "audit", "limits", "models")) {
            show(screen);
            assertThat((Long) js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")).as(screen)
                    .isLessThanOrEqualTo(0);
        }
        browser.manage().window().setSize(new Dimension(1280, 1000));

        // the key's own read-only view
        browser.findElement(By.id("signout")).click();
        await("the sign-in form", () -> browser.findElement(By.id("signin-key")).isDisplayed());
        signIn(secret);
        await("the key's usage screen", () -> browser.findElement(By.id("who")).getText().contains("browser-team"));
        show("usage");
        assertThat(browser.findElement(By.cssSelector("nav a[href='#keys']")).isDisplayed()).isFalse();
        await("the key's own totals", () -> browser.findElement(By.id("usage-total-requests")).getText().equals("3"));
        String own = browser.findElement(By.id("own-limits-view")).getText();
        assertThat(own).contains("of 900 left").contains("$25.00 a week");
        assertThat(browser.findElement(By.id("own-team-list")).getText()).contains("of 10 left").contains("$50.00 a month");
        assertThat(browser.findElement(By.id("own-team")).getText()).contains("browser-squad");
        assertThat(browser.findElements(By.cssSelector("#own-limits-view meter"))).hasSizeGreaterThanOrEqualTo(2);
        screenshot("team-view");
        // two more calls: the team's 10 requests a minute come back one every 6 s, so its bucket shows them used
        for (int i = 0; i < 2; i++) {
            openai.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("again " + i).build());
        }
        show("limits");
        await("the key's own limits", () -> browser.findElement(By.id("own-requests")).getText().contains("of 900 left"));
        assertThat(browser.findElement(By.id("own-team-list")).getText()).containsPattern("\\b[0-9] of 10 left");
        assertThat(Double.parseDouble(browser.findElement(By.cssSelector("#own-team-list meter")).getDomProperty("value"))).isPositive();
        assertThat(browser.findElement(By.tagName("main")).getText()).doesNotContain("short-lived");
        screenshot("key-limits");
        // another key's data is not the key's to see: the admin screens are refused
        show("audit");
        assertThat(browser.findElement(By.id("view")).getText()).contains("needs the audit:read permission");
    }

    /** Chooses an option of a select by its visible text, as a keyboard user would by typing it. */
    private static void choose(String selectId, String text) {
        js("const s = document.getElementById('" + selectId + "'); s.value = [...s.options].find(o => o.text === '" + text + "').value;"
                + " s.dispatchEvent(new Event('change'))");
    }

    /** Every input and select of the screen has a label (the accessible name screen readers announce). */
    private static void assertEveryControlIsLabelled() {
        assertThat((List<?>) js("return [...document.querySelectorAll('#view input, #view select')].filter(e => !e.labels || !e.labels.length).map(e => e.id)"))
                .isEmpty();
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
        // a page element not there yet throws: that is a value not there yet, kept for the failure's message
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
