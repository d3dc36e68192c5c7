package dev.modelgateway.console;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A group name (a key's or a team's, chosen by whoever created it) that a spreadsheet would run as a formula is
 * neutralised with a leading ' (OWASP, CSV injection): = + - @, and a leading TAB or CR, which spreadsheets strip
 * before looking for the formula sign.
 */
class UsageCsvTest {

    @ParameterizedTest
    @ValueSource(strings = {"=1+1", "+1", "-1", "@SUM(A1)", "\t=1+1", "\r=1+1", "\tplain"})
    void aGroupThatASpreadsheetWouldRunIsNeutralised(String group) {
        String cell = groupCell(group);
        assertThat(cell.startsWith("\"") ? cell.substring(1) : cell).as(group).startsWith("'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"team-a", "a=b", "key 1"})
    void anOrdinaryGroupIsKeptAsItIs(String group) {
        assertThat(groupCell(group)).isEqualTo(group);
    }

    private static String groupCell(String group) {
        UsageRow row = new UsageRow(0, group, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, new long[0], new long[0]);
        String line = UsageCsv.of(List.of(row)).split("\r\n", 3)[1];
        // the bucket is the first cell; the group follows it
        return line.substring(line.indexOf(',') + 1, line.lastIndexOf(",1,0,1,0,0,1,0,"));
    }
}
