import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Link, Route, Routes, UNSAFE_createMemoryHistory, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuardedRouter, useLeaveBlocker } from './GuardedRouter';

/** A page that holds every move away from it while "hold" is ticked. */
function Holding() {
  const [hold, setHold] = useState(true);
  const blocker = useLeaveBlocker(() => hold);
  const navigate = useNavigate();
  return (
    <div>
      <h1>Form</h1>
      <label>
        <input type="checkbox" checked={hold} onChange={(e) => setHold(e.target.checked)} /> hold
      </label>
      <Link to="/list">List</Link>
      <button onClick={() => void navigate('/list')}>Go by script</button>
      <p>{blocker.state}</p>
      <button onClick={blocker.proceed}>Proceed</button>
      <button onClick={blocker.reset}>Reset</button>
    </div>
  );
}

function renderAt(entries: string[]) {
  const history = UNSAFE_createMemoryHistory({
    initialEntries: entries,
    initialIndex: entries.length - 1,
    v5Compat: true,
  });
  render(
    <GuardedRouter history={history}>
      <Routes>
        <Route path="/form" element={<Holding />} />
        <Route path="/list" element={<h1>List</h1>} />
      </Routes>
    </GuardedRouter>,
  );
  return history;
}

const heading = () => screen.getByRole('heading').textContent;

describe('GuardedRouter', () => {
  it('holds a link until the page proceeds, and drops it on reset', async () => {
    const history = renderAt(['/form']);
    fireEvent.click(screen.getByRole('link', { name: 'List' }));
    expect(await screen.findByText('blocked')).toBeTruthy();
    expect(heading()).toBe('Form');
    expect(history.location.pathname).toBe('/form');

    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('unblocked')).toBeTruthy();
    expect(history.location.pathname).toBe('/form');

    fireEvent.click(screen.getByRole('button', { name: 'Go by script' }));
    expect(await screen.findByText('blocked')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByRole('heading', { name: 'List' })).toBeTruthy();
    expect(history.location.pathname).toBe('/list');
  });

  it('undoes Back while it is held, and makes it on proceed', async () => {
    const history = renderAt(['/list', '/form']);
    act(() => history.go(-1));
    expect(await screen.findByText('blocked')).toBeTruthy();
    expect(heading()).toBe('Form');
    expect(history.location.pathname).toBe('/form');

    fireEvent.click(screen.getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByRole('heading', { name: 'List' })).toBeTruthy();
    expect(history.location.pathname).toBe('/list');
    expect(history.index).toBe(0);
  });

  it('lets every move through when the page does not hold it', async () => {
    const history = renderAt(['/list', '/form']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'hold' }));
    act(() => history.go(-1));
    expect(await screen.findByRole('heading', { name: 'List' })).toBeTruthy();
    expect(history.location.pathname).toBe('/list');
  });
});
