import './instrument';
import { runHttpMain } from '@platform/envelope';
import { createCalendarApp } from './bootstrap';
import { CalendarConfig } from './config/calendar.config';

runHttpMain('calendar', () => createCalendarApp(), CalendarConfig);
