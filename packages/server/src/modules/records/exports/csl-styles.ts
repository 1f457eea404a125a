/*
 * Two CSL 1.0 styles written for Cairn: @citation-js/plugin-csl ships APA, Harvard and
 * Vancouver only. They cover what a repository record needs (authors, year, title, version,
 * publisher, DOI or URL), following the IEEE reference guide and Chicago's author-date system.
 */

export const IEEE_STYLE = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0" default-locale="en-US">
  <info>
    <title>IEEE (Cairn records)</title>
    <id>cairn-ieee</id>
    <updated>2026-11-21T00:00:00+00:00</updated>
  </info>
  <macro name="author">
    <names variable="author">
      <name initialize-with=". " delimiter=", " and="text" delimiter-precedes-last="never"/>
      <substitute><text variable="publisher"/></substitute>
    </names>
  </macro>
  <macro name="access">
    <choose>
      <if variable="DOI"><text variable="DOI" prefix="doi: "/></if>
      <else-if variable="URL"><text variable="URL" prefix="[Online]. Available: "/></else-if>
    </choose>
  </macro>
  <citation>
    <layout delimiter=", " prefix="[" suffix="]"><text variable="citation-number"/></layout>
  </citation>
  <bibliography entry-spacing="0" second-field-align="flush">
    <layout>
      <text variable="citation-number" prefix="[" suffix="]"/>
      <group delimiter=", " suffix=". ">
        <text macro="author"/>
        <text variable="title" quotes="true"/>
        <text variable="version" prefix="version "/>
        <text variable="publisher"/>
        <date variable="issued"><date-part name="year"/></date>
      </group>
      <text macro="access"/>
    </layout>
  </bibliography>
</style>`;

export const CHICAGO_STYLE = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0" default-locale="en-US">
  <info>
    <title>Chicago author-date (Cairn records)</title>
    <id>cairn-chicago</id>
    <updated>2026-11-21T00:00:00+00:00</updated>
  </info>
  <macro name="author">
    <names variable="author">
      <name name-as-sort-order="first" and="text" sort-separator=", " delimiter=", " delimiter-precedes-last="always"/>
      <substitute><text variable="publisher"/></substitute>
    </names>
  </macro>
  <macro name="title">
    <choose>
      <if type="article article-journal chapter paper-conference" match="any">
        <text variable="title" quotes="true"/>
      </if>
      <else><text variable="title" font-style="italic"/></else>
    </choose>
  </macro>
  <macro name="access">
    <choose>
      <if variable="DOI"><text variable="DOI" prefix="https://doi.org/"/></if>
      <else><text variable="URL"/></else>
    </choose>
  </macro>
  <citation>
    <layout prefix="(" suffix=")" delimiter="; ">
      <group delimiter=" ">
        <names variable="author"><name form="short" and="text"/></names>
        <date variable="issued"><date-part name="year"/></date>
      </group>
    </layout>
  </citation>
  <bibliography hanging-indent="true" entry-spacing="0">
    <layout suffix=".">
      <group delimiter=". ">
        <text macro="author"/>
        <date variable="issued"><date-part name="year"/></date>
        <text macro="title"/>
        <text variable="version" prefix="Version "/>
        <text variable="publisher"/>
        <text macro="access"/>
      </group>
    </layout>
  </bibliography>
</style>`;
