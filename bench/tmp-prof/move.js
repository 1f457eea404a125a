import { chromium } from 'playwright-core';
import { consortiumDraft, benchOrcid } from '../api/drafts.js';
import { startServer } from '../lib/server.js';
const EMAIL='prof@cairn.example', PASSWORD='cairn-bench-password';
const N = Number(process.argv[2] ?? 10000);
const what = process.argv[3] ?? 'move';
const server = await startServer({});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu','--no-first-run','--disable-background-networking'] });
try {
  await server.cli(['users','create',EMAIL,'--password',PASSWORD,'--name','P']);
  const token = (await server.cli(['tokens','create',EMAIL,'--name','b'])).trim();
  const draft = consortiumDraft(N);
  for (const [n,c] of draft.metadata.creators.entries()) { if (c.person_or_org.identifiers) c.person_or_org.identifiers=[{scheme:'orcid',identifier:benchOrcid(n%2000)}]; }
  const r = await fetch(`${server.baseUrl}/api/records`,{method:'POST',headers:{authorization:`Bearer ${token}`,accept:'application/json','content-type':'application/json'},body:JSON.stringify(draft)});
  const id = (await r.json()).id;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await page.getByRole('textbox',{name:'Email',exact:true}).fill(EMAIL);
  await page.getByRole('textbox',{name:'Password',exact:true}).fill(PASSWORD);
  await page.getByRole('button',{name:'Log in'}).click();
  await page.waitForURL((u)=>u.pathname!=='/login');
  await page.goto(`${server.baseUrl}/uploads/${id}`);
  await page.locator('[aria-posinset="1"]').waitFor();
  await page.waitForTimeout(3000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval',{interval:100});
  await cdp.send('Profiler.start');
  if (what==='move') {
    const button = page.locator('[aria-posinset="1"]').getByRole('button',{name:/^Move .* down$/});
    const label = await button.getAttribute('aria-label');
    for (let i=0;i<10;i++){ await page.getByRole('button',{name:label,exact:true}).click(); await page.waitForTimeout(300); }
  } else {
    const box = page.getByRole('textbox',{name:'Title',exact:true});
    await box.click(); await box.press('End');
    for (let i=0;i<30;i++){ await page.keyboard.press(i<15?'a':'Backspace'); await page.waitForTimeout(100); }
  }
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map(); const byId=new Map(profile.nodes.map(n=>[n.id,n]));
  const dt = profile.timeDeltas; let total=0;
  profile.samples.forEach((s,i)=>{ const n=byId.get(s); const k=`${n.callFrame.functionName||'(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k,(self.get(k)??0)+(dt[i]??0)); if(n.callFrame.functionName!=='(idle)'&&n.callFrame.functionName!=='(program)') total+=dt[i]??0;});
  console.log('busy ms', (total/1000).toFixed(1));
  // inclusive time
  const parent=new Map(); for(const n of profile.nodes) for(const c of n.children??[]) parent.set(c,n.id);
  const incl=new Map();
  profile.samples.forEach((s,i)=>{ const seen=new Set(); let id=s; while(id!==undefined){ const n=byId.get(id); const k=`${n.callFrame.functionName||'(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; if(!seen.has(k)){seen.add(k); incl.set(k,(incl.get(k)??0)+(dt[i]??0));} id=parent.get(id);} });
  console.log('--- self'); [...self].sort((a,b)=>b[1]-a[1]).slice(0,25).forEach(([k,v])=>console.log((v/1000).toFixed(1).padStart(8),k));
  console.log('--- inclusive'); [...incl].sort((a,b)=>b[1]-a[1]).slice(0,40).forEach(([k,v])=>console.log((v/1000).toFixed(1).padStart(8),k));
} finally { await browser.close(); await server.stop(); }
