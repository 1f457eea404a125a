import { chromium } from 'playwright-core';
import { consortiumDraft, benchOrcid } from '../api/drafts.js';
import { startServer } from '../lib/server.js';
const EMAIL='prof@cairn.example', PASSWORD='cairn-bench-password';
const INSTR = `
  const afterPaint = (start) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => { window.__paint = performance.now() - start; }; c.port2.postMessage(null); });
  window.__armjs = () => { window.__js = undefined; const l = (e) => { document.removeEventListener('click', l, true); const t0 = performance.now(); setTimeout(() => { window.__js = performance.now() - t0; }, 0); }; document.addEventListener('click', l, true); };
  window.__arm = (pos) => { window.__armjs(); window.__paint = undefined; const l = (e) => { document.removeEventListener('click', l, true); const start = e.timeStamp; const row = e.target.closest('[aria-posinset]');
    const cond = () => row && row.isConnected && row.getAttribute('aria-posinset') === String(pos);
    if (cond()) return afterPaint(start); const o = new MutationObserver(() => { if (!cond()) return; o.disconnect(); afterPaint(start); }); o.observe(document, {childList:true,subtree:true,attributes:true}); };
    document.addEventListener('click', l, true); };`;
const server = await startServer({});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu','--no-first-run','--disable-background-networking'] });
const out = {};
try {
  await server.cli(['users','create',EMAIL,'--password',PASSWORD,'--name','P']);
  const token = (await server.cli(['tokens','create',EMAIL,'--name','b'])).trim();
  const ids = {};
  for (const N of [10, 10000]) {
    const draft = consortiumDraft(N);
    for (const [n,c] of draft.metadata.creators.entries()) { if (c.person_or_org.identifiers) c.person_or_org.identifiers=[{scheme:'orcid',identifier:benchOrcid(n%2000)}]; }
    const r = await fetch(`${server.baseUrl}/api/records`,{method:'POST',headers:{authorization:`Bearer ${token}`,accept:'application/json','content-type':'application/json'},body:JSON.stringify(draft)});
    ids[N] = (await r.json()).id;
  }
  const context = await browser.newContext();
  const page0 = await context.newPage();
  await page0.goto(`${server.baseUrl}/login`);
  await page0.getByRole('textbox',{name:'Email',exact:true}).fill(EMAIL);
  await page0.getByRole('textbox',{name:'Password',exact:true}).fill(PASSWORD);
  await page0.getByRole('button',{name:'Log in'}).click();
  await page0.waitForURL((u)=>u.pathname!=='/login');
  for (const round of [1,2]) for (const N of [10, 10000]) {
    const page = await context.newPage();
    await page.addInitScript({content: INSTR});
    await page.goto(`${server.baseUrl}/uploads/${ids[N]}`);
    await page.locator('[aria-posinset="1"]').waitFor();
    await page.waitForTimeout(3000);
    const label = await page.locator('[aria-posinset="1"]').getByRole('button',{name:/^Move .* down$/}).getAttribute('aria-label');
    const up = label.replace(/ down$/, ' up');
    const t = [];
    for (let i=0;i<40;i++){
      const down = i % 2 === 0;
      await page.evaluate(`window.__arm(${down ? 2 : 1})`);
      await page.getByRole('button',{name: down ? label : up,exact:true}).click();
      await page.waitForFunction('window.__paint !== undefined');
      t.push(await page.evaluate('window.__js'));
      await page.waitForTimeout(150);
    }
    t.sort((a,b)=>a-b);
    console.log(`round ${round} N=${N} median ${t[20].toFixed(1)} p90 ${t[36].toFixed(1)} min ${t[0].toFixed(1)}`);
    await page.close();
  }
} finally { await browser.close(); await server.stop(); }
